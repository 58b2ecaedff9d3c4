import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeTelegram, type FakeTelegram } from "@chorus/channel-telegram/testing";
import { createFakeWhatsApp, saveLinkedCreds } from "@chorus/channel-whatsapp/testing";
import { closedPort, waitFor } from "@chorus/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { runChorus } from "../support/loading-cli.js";

const plugin = (id: string) => fileURLToPath(new URL(`../../../../packages/channel-${id}`, import.meta.url));

/** One canary per secret config key (and a linked device's keys): none may appear anywhere the gateway shows things. */
const CANARY: Record<string, string> = {
  telegramToken: "918273645:CANARYcanaryCANARYcanaryCANARYcanary1",
  telegramRefused: "918273646:CANARYrefusedCANARYrefusedCANARYrefu2",
  nextcloudSecret: "canary-nextcloud-secret-0123456789abcdef0123456789abcdef",
  imessagePassword: "canary-bluebubbles-password-5f6e7d",
  imessageWebhookSecret: "canary-bluebubbles-webhook-secret-8a9b0c",
  discordToken: "canary-discord.MTA5ODc2NTQz.c4n4ry-everywhere",
  slackBotToken: "xoxb-canary-0000000001-slackbot",
  slackAppToken: "xapp-1-canary-slack-app-token-01",
  slackSigningSecret: "canary-slack-signing-secret-0123456",
  feishuAppSecret: "canaryFeishuAppSecret0123456789ab",
  feishuEncryptKey: "canary-feishu-encrypt-key-987654",
  signalPassword: "canary-signal-proxy-password-4321",
  // A model proxy that takes its key in the path (as some do): doctor names the server it probes.
  modelKeyInPath: "canary-model-path-key-7d1e2f3a4b",
  modelApiKey: "sk-canary-model-api-key-0a1b2c3d",
};

interface ChannelRow {
  id: string;
  account: string;
  status: { state: string; detail?: string; lastError?: string };
}

describe("canary secrets of every channel against unreachable and refusing platforms (real gateway process)", () => {
  let gateway: GatewayProcess;
  let telegram: FakeTelegram;

  beforeAll(async () => {
    // A real Telegram fake that does not know the token: every call is refused with 401.
    telegram = createFakeTelegram();
    await telegram.start();
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    // A linked WhatsApp device whose server is gone: its private keys are secrets too.
    const home = await mkdtemp(join(tmpdir(), "chorus-home-"));
    const wa = createFakeWhatsApp();
    const creds = wa.linkedCreds();
    const key = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
    CANARY.whatsappNoiseKey = key(creds.noiseKey.private);
    CANARY.whatsappIdentityKey = key(creds.signedIdentityKey.private);
    CANARY.whatsappAdvSecret = creds.advSecretKey;
    await saveLinkedCreds(join(home, "state", "whatsapp", "default"), creds);
    gateway = await startGatewayProcess({
      home,
      config: {
        plugins: {
          load: ["telegram", "nextcloud", "imessage", "whatsapp", "discord", "slack", "feishu", "signal"].map(plugin),
        },
        agents: {
          list: [
            {
              id: "main",
              model: {
                provider: "openai-compatible",
                baseURL: `${nowhere}/${CANARY.modelKeyInPath}/v1`,
                apiKey: CANARY.modelApiKey,
                model: "canary-model",
              },
            },
          ],
        },
        channels: {
          telegram: {
            accounts: {
              unreachable: { botToken: CANARY.telegramToken, apiRoot: nowhere, retries: 0 },
              refused: { botToken: CANARY.telegramRefused, apiRoot: telegram.url, retries: 0 },
            },
          },
          nextcloud: { baseUrl: nowhere, secret: CANARY.nextcloudSecret, retries: 0 },
          imessage: {
            serverUrl: nowhere,
            password: CANARY.imessagePassword,
            webhookSecret: CANARY.imessageWebhookSecret,
            retries: 0,
          },
          discord: { token: CANARY.discordToken, apiRoot: `${nowhere}/api`, retries: 0, timeoutMs: 1_000 },
          slack: {
            accounts: {
              socket: { botToken: CANARY.slackBotToken, appToken: CANARY.slackAppToken, apiUrl: `${nowhere}/api/` },
              http: {
                mode: "http",
                botToken: CANARY.slackBotToken,
                signingSecret: CANARY.slackSigningSecret,
                apiUrl: `${nowhere}/api/`,
              },
            },
            retries: 0,
            timeoutMs: 1_000,
          },
          feishu: {
            appId: "cli_0123456789abcdef",
            appSecret: CANARY.feishuAppSecret,
            encryptKey: CANARY.feishuEncryptKey,
            domain: nowhere,
            retries: 0,
            timeoutMs: 1_000,
          },
          signal: {
            account: "+15550004321",
            httpUrl: nowhere,
            auth: { username: "chorus", password: CANARY.signalPassword },
            retries: 0,
            timeoutMs: 1_000,
          },
          whatsapp: { waWebSocketUrl: nowhere.replace("http:", "ws:"), connectTimeoutMs: 1_000 },
        },
      },
      env: { CHORUS_RESTART_BACKOFF_MS: "200" },
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await telegram?.close();
    if (gateway) await removeHome(gateway.home);
  });

  const channels = async () => (await gateway.call("GET", "/v1/channels")).json.channels as ChannelRow[];

  /** Each secret, raw and as a URL or JSON would carry it. */
  const leaks = (text: string) =>
    Object.entries(CANARY).flatMap(([name, secret]) =>
      [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)].some((form) => text.includes(form))
        ? [name]
        : [],
    );

  it("every account fails with a reason, and no canary is in stdout, stderr, /v1/channels, an API answer, chorus channels or chorus doctor", async () => {
    // Telegram and BlueBubbles are asked at start; Nextcloud Talk only pushes to us, so it is
    // asked by a send: each has to fail, and say why.
    const sent = await gateway.call("POST", "/v1/tools/message", {
      channel: "nextcloud",
      target: "conversation-token",
      action: "send",
      text: "hello",
    });
    expect(sent.status).toBeGreaterThanOrEqual(400);
    expect(sent.json.error.code).toBe("E_PLATFORM");
    // The same through MCP, an agent's path: the failure is a tool result, without the secret.
    const mcp = new Client({ name: "canary", version: "1" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
      }),
    );
    const mcpSent = await mcp.callTool({
      name: "message_nextcloud",
      arguments: { action: "send", target: "conversation-token", text: "hello" },
    });
    expect(mcpSent).toMatchObject({ isError: true, structuredContent: { error: { code: "E_PLATFORM" } } });
    const failing = await waitFor(
      async () => {
        const rows = (await channels()).filter((c) => c.id !== "webchat");
        // The account whose token Telegram refuses is failed (not restarted in a loop), the others degraded.
        const expected = (r: ChannelRow) => (r.id === "telegram" && r.account === "refused" ? "failed" : "degraded");
        return rows.length === 10 && rows.every((r) => r.status.state === expected(r)) ? rows : undefined;
      },
      { timeoutMs: 20_000, message: "every channel account degraded (the refused one failed) with a reason" },
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify((await channels()).map((c) => c.status))}`);
    });
    for (const row of failing) expect(row.status.detail ?? "").not.toBe("");
    const refused = failing.find((r) => r.id === "telegram" && r.account === "refused");
    expect(refused?.status.lastError).toMatch(/401|Unauthorized/);

    const api = JSON.stringify(await channels());
    const mcpChannels = JSON.stringify(await mcp.callTool({ name: "list_channels", arguments: {} }));
    const mcpTools = JSON.stringify(await mcp.listTools());
    await mcp.close();
    const options = { home: gateway.home };
    const args = ["--url", gateway.url, "--token", gateway.token];
    const listed = await runChorus(["channels", ...args], options);
    const json = await runChorus(["channels", "--json", ...args], options);
    const doctor = await runChorus(["doctor", ...args], options);
    expect(listed.stdout).toContain("telegram");
    expect(doctor.stdout + doctor.stderr).toContain("nextcloud");
    // The operator's probes: /readyz (no token) names each failing account and why, /metrics counts.
    const readyz = await fetch(`${gateway.url}/readyz`);
    expect(readyz.status).toBe(503);
    const ready = await readyz.text();
    const authorization = { authorization: `Bearer ${gateway.token}` };
    const metrics = await (await fetch(`${gateway.url}/metrics`, { headers: authorization })).text();
    const places = {
      "gateway output": gateway.output(),
      "/readyz": ready,
      "/metrics": metrics,
      "/v1/channels": api,
      "the API's answer to a failed send": JSON.stringify(sent.json),
      "MCP's answer to a failed send": JSON.stringify(mcpSent),
      "MCP list_channels": mcpChannels,
      "MCP tools/list": mcpTools,
      "chorus channels": listed.stdout + listed.stderr,
      "chorus channels --json": json.stdout + json.stderr,
      "chorus doctor": doctor.stdout + doctor.stderr,
    };
    for (const [place, text] of Object.entries(places))
      expect({ place, leaks: leaks(text) }).toEqual({ place, leaks: [] });
  });
});
