import { type InboundEvent, isChorusError } from "@chorus/core";
import { waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LinkedChannel, linkedChannel } from "./test-support.test-util.js";
import { ANN, BOB, TEAM } from "./testing/fixture.js";

let world: LinkedChannel;

beforeEach(async () => {
  // Pings every 50 ms, to see that they are all the client ever sends Zalo.
  world = await linkedChannel({ fake: { pingIntervalMs: 50 } });
});

afterEach(async () => {
  await world.close();
});

const texts = () => world.running.events.map((e) => (e.type === "message" ? e.text : e.type));
const saying = (text: string) => (e: InboundEvent) => e.type === "message" && e.text === text;
/** How often Zalo pushed an event carrying `text` to a listener. */
const pushed = (text: string) => world.fake.listener.sent.filter((e) => e.json.includes(text)).length;

describe("receive: Zalo's listener has no acknowledgement, so what is not committed is kept", () => {
  it("a commit the gateway refuses: Zalo never pushes it again, the plugin emits it again, committed once", async () => {
    world.running.refuseCommit(saying("keep me"));
    const sent = await world.fake.personSends({ from: ANN.id, group: TEAM, text: "keep me" });
    const event = await world.inbound(sent.msgId);
    // Pushed once; the client sent Zalo nothing about it (only its pings): there is nothing to acknowledge.
    expect(pushed("keep me")).toBe(1);
    await waitFor(() => world.fake.listener.pings.length > 0);
    expect(new Set(world.fake.listener.received)).toEqual(new Set([2]));
    expect(world.running.refused.map((e) => e.eventId)).toEqual([event.eventId]);
    expect(texts()).toEqual(["keep me"]);
    expect(world.running.duplicates).toEqual([]);
    const refused = world.running.logs.at("warn").find((r) => r.message.includes("could not commit"));
    expect(refused?.message).toBe(
      "zalouser: the gateway could not commit an event; it is kept and emitted again until it is",
    );
    expect(isChorusError(refused?.fields.err)).toBe(true);
    await waitFor(() => world.running.logs.at("info").some((r) => r.message.includes("kept after a failed commit")));
  });

  it("events of one conversation reach the gateway in the order Zalo pushed them", async () => {
    for (const text of ["one", "two", "three"]) await world.fake.personSends({ from: BOB.id, group: TEAM, text });
    await world.running.waitForEvent(saying("three"));
    expect(texts()).toEqual(["one", "two", "three"]);
  });

  it("an event it cannot read: a warning naming the fields, nothing kept, and the next one arrives", async () => {
    await world.fake.deliverUnparseable();
    const next = await world.fake.personSends({ from: ANN.id, text: "after the garbage" });
    await world.inbound(next.msgId);
    expect(texts()).toEqual(["after the garbage"]);
    expect(world.running.logs.at("warn").map((r) => r.message)).toEqual([
      expect.stringMatching(/^zalouser: skipped a delivery it cannot read: unreadable message: msgId: .*uidFrom/),
    ]);
    expect(world.running.refused).toEqual([]);
  });
});
