import { inspect } from "node:util";
import type { PlatformFault } from "@chorus/testkit";
import { closedPort, EscapeWatch, eventually, type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discordChannel } from "./index.js";
import { ANN, FAST, startFakeDiscord } from "./test-support.test-util.js";
import type { FakeDiscord } from "./testing/index.js";

/** @discordjs/ws connects again this long after a connection ended (its fixed pause). */
const RECONNECT_PAUSE_MS = 500;

/** Timers and sockets alive in this process: what a client that outlived its failed start would keep. */
function leftovers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "Timeout" || r === "TCPSocketWrap").length;
}

let fake: FakeDiscord;
let watch: EscapeWatch;
let running: RunningChannel | undefined;
let baseline: number;

beforeEach(async () => {
  fake = await startFakeDiscord();
  watch = new EscapeWatch().start();
});
afterEach(async () => {
  watch.stop();
  await running?.stop();
  running = undefined;
  await fake.close();
});

/** An instance created the way the gateway creates one, not started yet; what is alive now is the baseline. */
async function created(config: Record<string, unknown>): Promise<RunningChannel> {
  baseline = leftovers();
  running = await startChannel(discordChannel, { config, start: false });
  return running;
}

/**
 * The failed start left nothing that fires later. The defect this guards against was a READY
 * deadline nobody awaited any more: its rejection came `readyTimeoutMs` after the failure. So
 * first that much time passes (the timer's own deadline, not a wait for I/O), then every timer
 * and socket of the client must be gone and nothing may have escaped the plugin.
 */
async function nothingLeft(readyTimeoutMs: number): Promise<void> {
  const deadline = Date.now() + readyTimeoutMs + 100;
  await waitFor(() => Date.now() >= deadline, { timeoutMs: readyTimeoutMs + 1_000 });
  await eventually(() => expect(leftovers()).toBeLessThanOrEqual(baseline), { timeoutMs: 15_000 });
  expect(watch.describe()).toBe("");
}

describe("Discord: a start that fails", () => {
  it("against a closed loopback port rejects with E_PLATFORM, says why in the status, and leaves nothing behind", async () => {
    const apiRoot = `http://127.0.0.1:${await closedPort()}/api`;
    const channel = await created({ ...FAST, token: fake.token, apiRoot, readyTimeoutMs: 500 });
    await expect(channel.instance.start()).rejects.toMatchObject({
      code: "E_PLATFORM",
      retryable: true,
      message: expect.stringMatching(/Discord unreachable \(login\): .*ECONNREFUSED/),
    });
    expect(channel.instance.status()).toEqual({
      state: "degraded",
      detail: expect.stringMatching(/Discord unreachable \(login\): .*ECONNREFUSED/),
    });
    await channel.instance.stop();
    expect(channel.instance.status()).toEqual({ state: "stopped" });
    await nothingLeft(500);
  });

  it("with a token Discord refuses rejects with E_AUTH and the hint; the token shows nowhere", async () => {
    const token = "refused-token.MTA5ODc2.abcdef";
    const channel = await created(fake.config({ ...FAST, token, readyTimeoutMs: 500 }));
    const failure = await channel.instance.start().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "E_AUTH", hint: expect.stringMatching(/Reset Token/) });
    expect(channel.instance.status()).toMatchObject({ state: "degraded", detail: expect.stringMatching(/token/) });
    // The whole error, causes included (discord.js errors carry the request's URL and body).
    const reported = [
      inspect(failure, { depth: 10 }),
      JSON.stringify([channel.instance.status(), channel.logs.records]),
    ];
    expect(reported.join("\n")).not.toContain(token);
    await nothingLeft(500);
  });

  it("when the bot may not have MESSAGE_CONTENT (close 4014) rejects with E_AUTH naming the portal switch", async () => {
    await fake.close();
    fake = await startFakeDiscord({ messageContentAllowed: false });
    const channel = await created(fake.config({ ...FAST, readyTimeoutMs: 500 }));
    await expect(channel.instance.start()).rejects.toMatchObject({
      code: "E_AUTH",
      message: "Discord closed the gateway: 4014 disallowed intents",
      hint: expect.stringMatching(/Message Content Intent.*messageContent: false/),
    });
    await nothingLeft(500);
    await channel.stop();
    running = await startChannel(discordChannel, { config: fake.config({ ...FAST, messageContent: false }) });
    expect(running.instance.status().state).toBe("running");
  });

  const GATEWAY_FAULTS: PlatformFault[] = ["refuse", "close", "hang", "garbage"];
  it.each(GATEWAY_FAULTS)(
    "on a gateway that fails (%s) while REST answers rejects at readyTimeoutMs; no connection outlives it",
    async (kind) => {
      fake.gateway.startFault(kind);
      const channel = await created(fake.config({ ...FAST, readyTimeoutMs: 1_000 }));
      await expect(channel.instance.start()).rejects.toMatchObject({
        code: "E_PLATFORM",
        message: expect.stringMatching(/^Discord gateway sent no READY within 1000 ms/),
      });
      expect(channel.instance.status().detail).toMatch(/no READY within 1000 ms/);
      // The failure is the deadline itself: nothing of it is still to come.
      await nothingLeft(0);
      // A client destroyed mid-connect used to connect again after @discordjs/ws' pause, and on and
      // on while the fault lasts. That no connection comes can only be shown over time: twice the pause.
      const accepted = fake.gateway.accepted;
      const survivor = waitFor(() => fake.gateway.accepted > accepted, { timeoutMs: 2 * RECONNECT_PAUSE_MS + 200 });
      await expect(survivor).rejects.toThrow();
      fake.gateway.heal();
      await channel.instance.start();
      expect(fake.gateway.accepted).toBe(accepted + 1);
      expect(fake.gateway.sessions.size).toBe(1);
    },
  );

  it("stop() while a login waits for READY cancels it at once", async () => {
    fake.gateway.startFault("hang");
    const channel = await created(fake.config({ ...FAST, readyTimeoutMs: 60_000 }));
    const starting = channel.instance.start().catch((error: unknown) => error);
    await eventually(() => expect(fake.gateway.accepted).toBe(1));
    await channel.instance.stop();
    expect(await starting).toMatchObject({ code: "E_DISABLED" });
    expect(channel.instance.status()).toEqual({ state: "stopped" });
    await nothingLeft(500);
  });
});

describe("Discord: a session Discord ends for good", () => {
  it("a reset token (close 4004): degraded with the reason, logs in again with backoff, runs once the token works", async () => {
    const token = fake.token;
    running = await startChannel(discordChannel, { config: fake.config(FAST) });
    fake.resetToken("the-new-token.MTA5ODc2.zyxwvu");
    await eventually(() =>
      expect(running?.instance.status()).toEqual({
        state: "degraded",
        detail: expect.stringMatching(/Discord refused the bot token \(login\); logging in again in \d+ ms/),
      }),
    );
    // Meanwhile a call fails at once, retryable, saying why.
    await expect(running.instance.send({ id: "200" }, { text: "x" })).rejects.toMatchObject({
      code: "E_PLATFORM",
      retryable: true,
      message: expect.stringMatching(/^Discord is not connected: Discord refused the bot token/),
    });
    expect(running.logs.at("warn").map((r) => r.message)).toContainEqual(
      expect.stringMatching(/Discord closed the gateway: 4004 authentication failed; logging in again/),
    );
    fake.resetToken(token);
    await eventually(() => expect(running?.instance.status().state).toBe("running"));
    const message = fake.userSends({ channelId: "200", author: ANN, content: "are you back?" });
    await running.waitForEvent((e) => e.type === "message" && e.ref.messageId === message.id);
    expect(watch.describe()).toBe("");
  });
});
