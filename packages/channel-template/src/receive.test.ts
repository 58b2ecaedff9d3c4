import { type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acmeChannel } from "./index.js";
import { createFakeAcme, type FakeAcme } from "./testing/index.js";

const ann = { id: "u_ann", name: "Ann" };
let fake: FakeAcme;
let running: RunningChannel;

beforeEach(async () => {
  // Acme's retries after 30 ms rather than 10 s.
  fake = createFakeAcme({ retryDelaysMs: [30, 60, 120] });
  await fake.start();
  fake.addConversation({ id: "c_team", type: "group", name: "Team", members: [fake.bot, ann] });
  running = await startChannel(acmeChannel, { config: fake.config() });
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

const texts = () => running.events.map((e) => (e.type === "message" ? e.text : e.type));
const answers = () => fake.webhooks.posted.map((p) => [p.status, p.retry]);
const said = (text: string) => (e: { type: string; text?: string }) => e.type === "message" && e.text === text;

describe("receive: Acme's answer says whether the gateway committed the delivery", () => {
  it("answers 200 once the event is committed", async () => {
    await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "hello" });
    expect(answers()).toEqual([[200, 0]]);
    expect(texts()).toEqual(["hello"]);
  });

  it("a commit that fails is answered 503, and Acme's retry is committed once", async () => {
    running.refuseCommit(said("keep me"));
    await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "keep me" });
    // No acknowledgement: Acme holds the delivery and posts it again.
    expect(answers()).toEqual([[503, 0]]);
    expect(running.refused.map((e) => e.eventId)).toHaveLength(1);
    await waitFor(() => fake.webhooks.posted.length === 2);
    expect(answers()).toEqual([
      [503, 0],
      [200, 1],
    ]);
    expect(texts()).toEqual(["keep me"]);
    expect(running.events[0]?.eventId).toBe(running.refused[0]?.eventId);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      "acme: the gateway could not commit an event; it is not acknowledged, so the platform delivers it again",
    ]);
  });

  it("a delivery it cannot read: a warning naming what was wrong, and acknowledged (never posted again)", async () => {
    expect(await fake.deliverUnparseable()).toBe(200);
    expect(await fake.webhooks.post("{ not json")).toBe(200);
    expect(running.events).toEqual([]);
    const warnings = running.logs.at("warn").map((r) => r.message);
    expect(warnings).toEqual([
      expect.stringMatching(/^acme: skipped a delivery it cannot read: unreadable message\.created: message\.id: /),
      expect.stringMatching(/^acme: skipped a delivery it cannot read: .*JSON/),
    ]);
    expect(warnings[0]).toContain("message.author");
    expect(fake.webhooks.retrying).toBe(0);
  });

  it("answers 503 while stopped, and Acme's retry delivers it once the channel runs again", async () => {
    await running.instance.stop();
    await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "while you were out" });
    expect(answers()).toEqual([[503, 0]]);
    await running.instance.start();
    await running.waitForEvent(said("while you were out"));
    expect(texts()).toEqual(["while you were out"]);
    await waitFor(() => fake.webhooks.posted.at(-1)?.status === 200);
  });
});
