import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { type CliRun, freePort, makeHome, runChorus, STACK_LINE } from "../support/loading-cli.js";
import { installIntoHome } from "../support/loading-plugins.js";
import { connectWebchat, type Frame, type WebchatClient } from "../support/webchat-client.js";

/** The JSON a successful `chorus message …` printed. */
function resultOf(run: CliRun): Record<string, unknown> {
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

interface ChannelsListing {
  gatewayRunning: boolean;
  gatewayError?: { code: string; message: string };
  channels: { id: string; configured: boolean; live: { account: string; status: { state: string } }[] }[];
}

describe("the CLI against a running gateway (webchat + acme; endpoint and token from the home)", () => {
  let gateway: GatewayProcess;
  let ada: WebchatClient;
  const chorus = (...args: string[]) => runChorus(args, { home: gateway.home });
  const webchat = (...args: string[]) => chorus("message", ...args, "--channel", "webchat", "--target", "lobby");

  beforeAll(async () => {
    const home = await makeHome();
    await installIntoHome(home, "chorus-channel-acme");
    // A fixed port: the CLI finds the gateway through gateway.port, and the token in <home>/gateway-token.
    const port = await freePort();
    gateway = await startGatewayProcess({
      home,
      config: { gateway: { port }, channels: { acme: { greeting: "hi" } } },
    });
    ada = await connectWebchat(gateway.url, gateway.token, "Ada");
    ada.send({ type: "join", room: "lobby" });
    await ada.waitForFrame((f) => f.type === "history" && f.room === "lobby");
  });
  afterAll(async () => {
    await ada?.close();
    await gateway?.stop();
    if (gateway) await removeHome(gateway.home);
  });

  it("the generated token is the one in <home>/gateway-token", async () => {
    expect(gateway.output()).toContain(
      `(generated, kept in ${join(gateway.home, "gateway-token")}; \`chorus token\` shows it again)`,
    );
    expect((await readFile(join(gateway.home, "gateway-token"), "utf8")).trim()).toBe(gateway.token);
  });

  it("chorus channels --json: installed channels with their live status (an empty CHORUS_TOKEN counts as unset)", async () => {
    const run = await runChorus(["channels", "--json"], { home: gateway.home, env: { CHORUS_TOKEN: "" } });
    expect(run.code).toBe(0);
    const listing = JSON.parse(run.stdout) as ChannelsListing;
    expect(listing.gatewayError).toBeUndefined();
    expect(listing.gatewayRunning).toBe(true);
    expect(
      listing.channels.map((c) => [c.id, c.configured, c.live.map((l) => `${l.account}:${l.status.state}`)]),
    ).toEqual([
      ["webchat", true, ["default:running"]],
      ["acme", true, ["default:running"]],
    ]);
  });

  it("chorus channels: one line per channel with status and reaction flags, and its webhook URLs", async () => {
    const run = await chorus("channels");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^acme +chorus-channel-acme@1\.2\.0 +configured {2}default: running \(greeting hi\) {2}reactions: clearAll, list$/m,
    );
    // The URLs to give the platform: what acme registered, on the running gateway's address.
    expect(run.stdout).toContain(`webhook ${gateway.url}/hooks/acme/explode\n`);
    expect(run.stdout).toContain(`webhook ${gateway.url}/hooks/acme/ping\n`);
    expect(run.stdout).not.toMatch(/webhook .*\/hooks\/webchat/);
    expect(run.stdout).not.toContain("not running");
  });

  it("send, react, list and remove on a webchat message: results, and what the webchat shows", async () => {
    const sent = resultOf(await webchat("send", "--text", "hello from the CLI"));
    expect(sent).toEqual({ ok: true, action: "send", messageId: expect.stringMatching(/^m_/) });
    const messageId = sent.messageId as string;
    const shown = await ada.waitForFrame((f) => f.type === "message" && f.message.id === messageId);
    expect(shown.message).toMatchObject({ room: "lobby", text: "hello from the CLI", sender: { bot: true } });

    const reacted = resultOf(await webchat("react", "--message-id", messageId, "--emoji", "thumbsup"));
    expect(reacted).toEqual({ ok: true, action: "react", op: "add", emoji: "👍" });
    await ada.waitForFrame(
      (f: Frame) =>
        f.type === "reactions" && f.messageId === messageId && f.reactions.some((r: Frame) => r.emoji === "👍"),
    );
    expect(resultOf(await webchat("reactions", "--message-id", messageId))).toEqual({
      ok: true,
      action: "reactions",
      reactions: [{ emoji: "👍", count: 1, me: true }],
    });

    const removed = resultOf(await webchat("react", "--message-id", messageId, "--emoji", "👍", "--remove"));
    expect(removed).toMatchObject({ ok: true, action: "react", op: "remove" });
    await ada.waitForFrame((f) => f.type === "reactions" && f.messageId === messageId && f.reactions.length === 0);
    const api = await gateway.call("POST", "/v1/tools/message", {
      channel: "webchat",
      target: "lobby",
      action: "reactions",
      messageId,
    });
    expect(api.json).toEqual({ ok: true, result: { ok: true, action: "reactions", reactions: [] } });
  });

  it("--reply-to and an explicit --url/--token reach the same gateway", async () => {
    const first = resultOf(await webchat("send", "--text", "question"));
    const reply = resultOf(
      await webchat(
        "send",
        "--text",
        "answer",
        "--reply-to",
        first.messageId as string,
        "--url",
        `${gateway.url}/`,
        "--token",
        gateway.token,
      ),
    );
    const shown = await ada.waitForFrame((f) => f.type === "message" && f.message.id === reply.messageId);
    expect(shown.message.replyTo).toMatchObject({ id: first.messageId });
  });

  it("a plugin error comes back typed: unknown message id → E_MESSAGE_NOT_FOUND, exit 1", async () => {
    const run = await webchat("react", "--message-id", "m_doesnotexist", "--emoji", "thumbsup");
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^error E_MESSAGE_NOT_FOUND: webchat message m_doesnotexist is not in room lobby/);
    expect(run.stderr).not.toMatch(STACK_LINE);
  });

  it("a wrong token: a clear E_AUTH error, exit 1, and nothing is sent", async () => {
    for (const run of [
      await webchat("send", "--text", "sneaky one", "--token", "not-the-token-at-all"),
      await runChorus(["message", "send", "--channel", "webchat", "--target", "lobby", "--text", "sneaky two"], {
        home: gateway.home,
        env: { CHORUS_TOKEN: "not-the-token-at-all" },
      }),
    ]) {
      expect(run).toMatchObject({ code: 1, stdout: "" });
      expect(run.stderr).toBe("error E_AUTH: missing or wrong bearer token (gateway.auth.token)\n");
    }
    const bob = await connectWebchat(gateway.url, gateway.token, "Bob");
    bob.send({ type: "join", room: "lobby" });
    const history = await bob.waitForFrame((f) => f.type === "history" && f.room === "lobby");
    await bob.close();
    const texts = (history.messages as Frame[]).map((m) => m.text);
    expect(texts).toContain("hello from the CLI");
    expect(texts.filter((t) => String(t).startsWith("sneaky"))).toEqual([]);
  });

  it("chorus channels with a wrong token says the gateway refused it, not that it is not running", async () => {
    const env = { CHORUS_TOKEN: "not-the-token-at-all" };
    const json = await runChorus(["channels", "--json"], { home: gateway.home, env });
    expect(json.code).toBe(1);
    const listing = JSON.parse(json.stdout) as ChannelsListing;
    expect(listing.gatewayRunning).toBe(true);
    expect(listing.gatewayError).toMatchObject({ code: "E_AUTH", message: expect.stringContaining("bearer token") });
    const text = await runChorus(["channels"], { home: gateway.home, env });
    expect(text.code).toBe(1);
    expect(text.stdout).not.toContain("not running");
    expect(text.stderr).toBe("error E_AUTH: missing or wrong bearer token (gateway.auth.token)\n");
  });
});

describe("the CLI without a running gateway", () => {
  let home: string;
  beforeAll(async () => {
    home = await makeHome({ gateway: { port: await freePort() }, channels: { acme: {} } });
    await installIntoHome(home, "chorus-channel-acme");
  });
  afterAll(async () => {
    await removeHome(home);
  });

  it("chorus channels --json: what is installed and configured, nothing live", async () => {
    const run = await runChorus(["channels", "--json"], { home });
    expect(run.code).toBe(0);
    const listing = JSON.parse(run.stdout) as ChannelsListing;
    expect(listing.gatewayRunning).toBe(false);
    expect(listing.gatewayError).toBeUndefined();
    expect(listing.channels.map((c) => [c.id, c.configured, c.live])).toEqual([
      ["webchat", true, []],
      ["acme", true, []],
    ]);
  });

  it("chorus channels says the gateway is not running and how to start it", async () => {
    const run = await runChorus(["channels"], { home });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^acme +chorus-channel-acme@1\.2\.0 +configured$/m);
    expect(run.stdout).toContain("(the gateway is not running: start it with `chorus start` to see live status)");
  });

  it("chorus message send: the gateway is not reachable, with a hint, exit 1", async () => {
    const run = await runChorus(["message", "send", "--channel", "webchat", "--target", "lobby", "--text", "hi"], {
      home,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error E_PLATFORM: the gateway at http:\/\/127\.0\.0\.1:\d+ is not reachable: /);
    expect(run.stderr).toContain("hint: Start it with `chorus start`, or pass --url.");
  });
});
