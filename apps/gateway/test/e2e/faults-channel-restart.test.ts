import { join } from "node:path";
import { createMemoryPlatform, eventually, type MemoryPlatform, waitFor } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { connectWebchat, type WebchatClient } from "../support/webchat-client.js";

const START_CRASH = "flaky: the client crashed while connecting (start #1)";
const SEND_CRASH = "flaky: the client crashed while sending (send #2)";

interface ChannelRow {
  id: string;
  status: { state: string; detail?: string; restarts: number; lastError?: string };
}

describe("a channel that crashes on start and on every 2nd send (real gateway process)", () => {
  let platform: MemoryPlatform;
  let gateway: GatewayProcess;
  let ada: WebchatClient | undefined;

  beforeAll(async () => {
    platform = createMemoryPlatform();
    await platform.start();
    platform.addConversation({ id: "dm-ann", kind: "direct", members: [{ id: "ann", name: "Ann" }] });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [join(FIXTURES, "flaky-channel")] },
        channels: {
          flaky: { baseUrl: platform.url, token: platform.token, pollWaitMs: 2000, retries: 0, dmPolicy: "open" },
        },
      },
      // Restart delays of 400–800 ms: short, yet long enough to see the degraded state over HTTP.
      env: { CHORUS_RESTART_BACKOFF_MS: "800" },
    });
  });
  afterAll(async () => {
    await ada?.close();
    await gateway?.stop();
    await platform?.close();
    if (gateway) await removeHome(gateway.home);
  });

  const channels = async (): Promise<ChannelRow[]> => (await gateway.call("GET", "/v1/channels")).json.channels;
  const flaky = async () => (await channels()).find((c) => c.id === "flaky")?.status;
  const flakyIn = (state: string, restarts: number) =>
    waitFor(
      async () => {
        const status = await flaky();
        return status?.state === state && status.restarts === restarts ? status : undefined;
      },
      { timeoutMs: 10_000, message: `flaky ${state} after ${restarts} restart(s)` },
    );
  const botSaid = (text: string) =>
    platform.messagesIn("dm-ann").some((m) => m.senderId === "bot" && m.text.includes(`you said "${text}"`));
  const adaAsks = async (text: string) => {
    const client = ada as WebchatClient;
    client.send({ type: "message", room: `dm:${client.you.id}`, text });
    const reply = await client.waitForFrame(
      (f) =>
        f.type === "message" && f.message.sender?.id !== client.you.id && f.message.text.includes(`you said "${text}"`),
    );
    return reply.message.text as string;
  };

  it("a failed start shows as degraded with its error, then the channel runs after a restart", async () => {
    const degraded = await flakyIn("degraded", 0);
    expect(degraded).toEqual({ state: "degraded", detail: START_CRASH, restarts: 0, lastError: START_CRASH });
    expect((await channels()).find((c) => c.id === "webchat")?.status).toMatchObject({ state: "running", restarts: 0 });

    const running = await flakyIn("running", 1);
    expect(running).toMatchObject({ state: "running", restarts: 1, lastError: START_CRASH });
    expect(gateway.logs()).toContainEqual(
      expect.objectContaining({ msg: "channel failed; restarting", instance: "flaky:default", err: START_CRASH }),
    );
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  });

  it("a crash while sending restarts the channel; webchat answers meanwhile and the platform is answered again", async () => {
    await flakyIn("running", 1);
    ada = await connectWebchat(gateway.url, gateway.token, "Ada");
    const room = `dm:${ada.you.id}`;
    ada.send({ type: "join", room });
    await ada.waitForFrame((f) => f.type === "history" && f.room === room);
    expect(await adaAsks("before the crash")).toContain("Demo agent (offline)");

    platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "one" });
    await eventually(() => expect(botSaid("one")).toBe(true), { timeoutMs: 10_000 });

    platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "two" });
    const degraded = await flakyIn("degraded", 1);
    expect(degraded).toEqual({ state: "degraded", detail: SEND_CRASH, restarts: 1, lastError: SEND_CRASH });

    // While the flaky channel is down: Ann writes on its platform, Ada keeps talking in the webchat.
    platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "three" });
    expect(await adaAsks("are you still there?")).toContain("Demo agent (offline)");
    expect((await channels()).find((c) => c.id === "webchat")?.status).toMatchObject({ state: "running", restarts: 0 });

    expect(await flakyIn("running", 2)).toMatchObject({ state: "running", restarts: 2, lastError: SEND_CRASH });
    // "three" arrived while the channel was down; the restarted instance picks it up and answers it.
    await eventually(() => expect(botSaid("three")).toBe(true), { timeoutMs: 10_000 });
    expect(gateway.process.exitCode).toBeNull();
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  });
});
