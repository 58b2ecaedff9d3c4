import type { InboundEvent } from "@chorus/core";
import { waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type HookHarness, startHookHarness } from "./hook-harness.test-util.js";

const ann = { id: "ann", name: "Ann" };
const isText = (text: string) => (event: InboundEvent) => event.type === "message" && event.text === text;

let harness: HookHarness;

beforeEach(async () => {
  harness = await startHookHarness();
});

afterEach(() => harness.close());

describe("receive: Talk never delivers a hook again, so an event whose commit failed is kept", () => {
  it("a commit that fails once: answered 202 once kept (no error for Talk), emitted again, committed once", async () => {
    const { fake, bot, running, deliver } = harness;
    running.refuseCommit(isText("refused once"));
    expect(await deliver(fake.userSends({ token: "team", user: ann, message: "refused once" }))).toBe(202);
    await running.waitForEvent(isText("refused once"));
    expect(running.refused.filter(isText("refused once"))).toHaveLength(1);
    expect(running.events.filter(isText("refused once"))).toHaveLength(1);
    // One delivery, taken as a success by Talk: the plugin, not Talk, delivered it again.
    expect(fake.deliveries).toHaveLength(1);
    expect(bot.errorCount).toBe(0);
    await waitFor(() => running.logs.at("info").some((r) => r.message.includes("is committed")));
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      "nextcloud: the gateway could not commit an event; it is kept and emitted again until it is",
    ]);
    expect(running.logs.at("info").find((r) => r.message.includes("is committed"))?.fields).toMatchObject({
      eventId: running.events[0]?.eventId,
      attempts: 2,
    });
  });

  it("a reaction whose commit fails once is kept under the same event id", async () => {
    const { fake, running, deliver } = harness;
    const message = fake.userSends({ token: "team", user: ann, message: "react to me" });
    const isLike = (event: InboundEvent) => event.type === "reaction";
    running.refuseCommit(isLike);
    expect(await deliver(fake.userReacts(Number(message.object.id), ann, "👍"))).toBe(202);
    await running.waitForEvent(isLike);
    expect(running.refused.map((e) => e.eventId)).toEqual(running.events.filter(isLike).map((e) => e.eventId));
  });

  it("a committed hook is answered 200 only once the gateway committed it", async () => {
    const { fake, running, deliver } = harness;
    expect(await deliver(fake.userSends({ token: "team", user: ann, message: "plain" }))).toBe(200);
    // The answer came after the commit: the event is there when the status is.
    expect(running.events.filter(isText("plain"))).toHaveLength(1);
  });

  it("an event still kept when the channel stops is let go, loudly", async () => {
    const { fake, running, deliver } = harness;
    running.refuseCommit(isText("never committed"), 1_000);
    expect(await deliver(fake.userSends({ token: "team", user: ann, message: "never committed" }))).toBe(202);
    await running.stop();
    expect(running.logs.at("error").map((r) => r.message)).toContain(
      "nextcloud: stopped with an event the gateway never committed: it is dropped",
    );
    expect(running.events).toEqual([]);
  });

  it("a hook it cannot read: the receiver's warning names the problem; answered 400, which Talk never retries", async () => {
    const { fake, bot, running, deliver } = harness;
    expect(await deliver(fake.unreadableEvent("team", ann))).toBe(400);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      expect.stringMatching(/^nextcloud: skipped a delivery it cannot read: a "Create" webhook from Talk: actor\./),
    ]);
    expect(fake.deliveries).toHaveLength(1);
    expect(bot.errorCount).toBe(1);
    expect(running.events).toEqual([]);
  });
});
