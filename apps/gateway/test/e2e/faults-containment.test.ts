import { join } from "node:path";
import { createMemoryPlatform, type MemoryPlatform, waitFor } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

interface ChannelRow {
  id: string;
  status: { state: string; detail?: string; restarts: number; lastError?: string };
}

describe("a channel whose code leaks a rejection or throws from a timer (real gateway process)", () => {
  let platform: MemoryPlatform;
  /** Where the broken channels connect: a platform of their own, so only `memory` answers Ann. */
  let quiet: MemoryPlatform;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    platform = createMemoryPlatform();
    quiet = createMemoryPlatform();
    await Promise.all([platform.start(), quiet.start()]);
    platform.addConversation({ id: "dm-ann", kind: "direct", members: [{ id: "ann", name: "Ann" }] });
    const memory = { baseUrl: platform.url, token: platform.token, pollWaitMs: 2000, retries: 0, dmPolicy: "open" };
    const broken = { ...memory, baseUrl: quiet.url, token: quiet.token };
    gateway = await startGatewayProcess({
      config: {
        plugins: {
          load: [join(FIXTURES, "leaky-channel"), join(FIXTURES, "throwing-channel"), join(FIXTURES, "memory-channel")],
        },
        channels: { leaky: broken, throwing: broken, memory },
      },
      env: { CHORUS_RESTART_BACKOFF_MS: "300" },
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await platform?.close();
    await quiet?.close();
    if (gateway) await removeHome(gateway.home);
  });

  const status = async (id: string) =>
    ((await gateway.call("GET", "/v1/channels")).json.channels as ChannelRow[]).find((c) => c.id === id)?.status;
  const restartedOnce = (id: string) =>
    waitFor(
      async () => {
        const s = await status(id);
        return s?.state === "running" && s.restarts === 1 ? s : undefined;
      },
      { timeoutMs: 15_000, message: `${id} running again after one restart` },
    );

  it("marks each broken channel degraded with its error, restarts it, and the gateway keeps running", async () => {
    const leaky = await restartedOnce("leaky");
    expect(leaky.lastError).toBe("leaky: ready timeout nobody awaited");
    const throwing = await restartedOnce("throwing");
    expect(throwing.lastError).toBe("throwing: a socket handler threw");
    expect(gateway.process.exitCode).toBeNull();
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    const contained = gateway
      .logs()
      .filter((l) => l.msg === "channel code failed outside any call; restarting the channel");
    expect(contained).toEqual([
      expect.objectContaining({
        instance: "leaky:default",
        how: "unhandled rejection",
        err: "leaky: ready timeout nobody awaited",
      }),
      expect.objectContaining({
        instance: "throwing:default",
        how: "uncaught exception",
        err: "throwing: a socket handler threw",
      }),
    ]);
  });

  it("another channel keeps answering", async () => {
    const sent = platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "still there?" });
    await waitFor(
      () => platform.messagesIn("dm-ann").some((m) => m.senderId === "bot" && m.text.includes("still there?")),
      { timeoutMs: 10_000, message: "the memory channel's answer" },
    );
    expect(sent.id).toBeTruthy();
    expect((await status("memory"))?.state).toBe("running");
  });
});
