import { fileURLToPath } from "node:url";
import { createFakeTelegram, type FakeTelegram } from "@chorus/channel-telegram/testing";
import { faults, waitFor } from "@chorus/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { runChorus } from "../support/loading-cli.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-telegram", import.meta.url));
/** The quiet retry of a failed account in this test (10 minutes by default). */
const AUTH_RETRY_MS = 8_000;
const UNAUTHORIZED = { ok: false, error_code: 401, description: "Unauthorized" };

interface ChannelView {
  id: string;
  status: { state: string; detail?: string; fix?: string };
}

describe("a revoked Telegram token: the account fails, is not restarted in a loop, and comes back (DESIGN §3)", () => {
  let telegram: FakeTelegram;
  let gateway: GatewayProcess;
  let client: Client;
  let changes = 0;

  beforeAll(async () => {
    telegram = createFakeTelegram();
    await telegram.start();
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN] },
        channels: {
          telegram: { ...telegram.config(), reconnectMinMs: 100, reconnectMaxMs: 200 },
          webchat: { enabled: false },
        },
      },
      // The ordinary restarts are quick here: a restart loop would show at once in the getMe count.
      env: { CHORUS_RESTART_BACKOFF_MS: "100", CHORUS_AUTH_RETRY_MS: String(AUTH_RETRY_MS) },
    });
    client = new Client({ name: "credentials-test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
      }),
    );
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
  }, 30_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await gateway?.stop();
    await telegram?.close();
    if (gateway) await removeHome(gateway.home);
  });

  const telegramView = async () =>
    ((await gateway.call("GET", "/v1/channels")).json.channels as ChannelView[]).find((c) => c.id === "telegram");
  const tools = async () => (await client.listTools()).tools.map((t) => t.name);
  const getMeCalls = () => telegram.server.requestsTo("*", /\/getMe$/).length;

  it("failed with the reason and the key to fix; its MCP tool withdrawn; doctor says so; back once the token works", async () => {
    await waitFor(async () => (await tools()).includes("message_telegram"), { message: "the Telegram tool" });
    const changesBefore = changes;

    // BotFather revokes the token: every call answers 401 from now on.
    telegram.server.inject(
      faults.serverError({ path: /\/bot[^/]+\/\w+$/ }, { status: 401, body: UNAUTHORIZED, times: Infinity }),
    );
    const failed = await waitFor(
      async () => {
        const view = await telegramView();
        return view?.status.state === "failed" ? view : undefined;
      },
      { timeoutMs: 10_000, message: "the Telegram account failed" },
    );
    expect(failed.status.detail).toContain("Unauthorized");
    expect(failed.status.fix).toContain("channels.telegram.botToken");
    expect(JSON.stringify(failed)).not.toContain(telegram.token);
    const getMeAtFailure = getMeCalls();

    // The tool is withdrawn, and MCP clients are told.
    await waitFor(() => changes > changesBefore, { timeoutMs: 5_000, message: "tools/list_changed" });
    expect(await tools()).not.toContain("message_telegram");
    const listed = (await client.callTool({ name: "list_channels", arguments: {} })) as unknown as {
      structuredContent: { channels: { id: string; tool: string | null; status: { state: string; fix?: string } }[] };
    };
    expect(listed.structuredContent.channels.find((c) => c.id === "telegram")).toMatchObject({
      tool: null,
      status: { state: "failed", fix: expect.stringContaining("channels.telegram.botToken") },
    });
    // Meanwhile nothing restarted it: not one getMe more (the ordinary restarts would call it every 100–800 ms).
    expect(await telegramView()).toMatchObject({ status: { state: "failed" } });
    expect(getMeCalls()).toBe(getMeAtFailure);
    const warnings = gateway.logs().filter((l) => l.msg === "channel failed; restarting");
    expect(warnings).toEqual([]);
    expect(
      gateway.logs().filter((l) => l.msg === "channel credentials refused; not restarting it (fix the config)"),
    ).toHaveLength(1);

    const doctor = await runChorus(["doctor", "--url", gateway.url, "--token", gateway.token], { home: gateway.home });
    const line = doctor.stdout.split("\n").find((l) => l.includes("running gateway: channel telegram (default)"));
    expect(line).toMatch(/failed: the platform refused its credentials/);
    expect(doctor.stdout).toContain("channels.telegram.botToken");
    expect(doctor.stdout).not.toContain(telegram.token);

    // The token works again: the quiet retry brings the account back, and its tool with it.
    telegram.server.clearFaults();
    const changesWhileFailed = changes;
    await waitFor(async () => (await telegramView())?.status.state === "running", {
      timeoutMs: AUTH_RETRY_MS + 10_000,
      message: "the Telegram account running again",
    });
    await waitFor(() => changes > changesWhileFailed, { timeoutMs: 5_000, message: "tools/list_changed on recovery" });
    expect(await tools()).toContain("message_telegram");
  }, 60_000);
});
