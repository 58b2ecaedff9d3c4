import { createMemoryPlatform, type MemoryPlatform, type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { helloChannel } from "./index.js";

let platform: MemoryPlatform;
let running: RunningChannel;

beforeEach(async () => {
  platform = createMemoryPlatform();
  await platform.start();
  platform.addConversation({ id: "c1", kind: "group", members: [{ id: "ann", name: "Ann" }] });
  const config = { baseUrl: platform.url, token: platform.token, pollWaitMs: 200, retries: 0 };
  running = await startChannel(helloChannel, { config });
});

afterEach(async () => {
  await running.stop();
  await platform.close();
});

/** The `after` of every poll the platform answered: how far the bot told it it had read. */
const cursors = () => platform.server.requestsTo("GET", "/v1/events").map((r) => Number(r.query.after));
const saying = (text: string) => (e: { type: string; text?: string }) => e.type === "message" && e.text === text;

describe("receive: the cursor moves past an event only once the gateway committed it", () => {
  it("a commit that fails: the cursor stays, the platform delivers it again, committed once", async () => {
    running.refuseCommit(saying("keep me"));
    const seq = platform.state.events.length + 1;
    platform.userSends({ conversationId: "c1", senderId: "ann", text: "keep me" });
    await running.waitForEvent(saying("keep me"));
    // Polled again from before it (no acknowledgement), and only then past it.
    expect(cursors().filter((after) => after === seq - 1).length).toBeGreaterThanOrEqual(2);
    await waitFor(async () => (await running.store.get("cursor")) === seq);
    expect(running.refused.map((e) => e.eventId)).toEqual([running.events[0]?.eventId]);
    expect(running.duplicates).toEqual([]);
  });

  it("an event it cannot read: a warning naming the problem, and acknowledged", async () => {
    platform.deliverRaw({ id: "evt-broken", type: "message", message: { id: 42 } });
    platform.userSends({ conversationId: "c1", senderId: "ann", text: "after" });
    await running.waitForEvent(saying("after"));
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      expect.stringMatching(/^hello: skipped a delivery it cannot read: unreadable event: message\.id: .*sender: /),
    ]);
    expect(await running.store.get("cursor")).toBe(platform.state.events.length);
  });
});
