import { randomBytes } from "node:crypto";
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
/** Text that does not deflate: zca-js takes milliseconds to decrypt its frame (about 2 MB of AES-GCM). */
const LONG = randomBytes(1_500_000).toString("base64");
/** The texts of the events so far, LONG shown as "long". */
const shown = () => texts().map((t) => (t === LONG ? "long" : t));
/**
 * Three messages of one conversation pushed back to back, in one tick: the first sealed with AES-GCM
 * (zca-js decrypts it on libuv's thread pool), the next two only deflated (encrypt 1: no thread pool,
 * decoded at once), so without ordering they always overtake it. Resolves once all three were emitted.
 */
async function pushSealedThenDeflated(): Promise<void> {
  const before = world.running.events.length;
  await world.fake.personSendsAll([
    { from: BOB.id, group: TEAM, text: "sealed", encoding: 2 },
    { from: BOB.id, group: TEAM, text: "two", encoding: 1 },
    { from: BOB.id, group: TEAM, text: "three", encoding: 1 },
  ]);
  await waitFor(() => world.running.events.length >= before + 3, { message: "the three events" });
}
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

  it("events of one conversation reach the gateway in the order Zalo pushed them, however long each takes to decrypt", async () => {
    // All sealed, as Zalo sends them: the long one takes longest to decrypt, pushed in the same tick as the others.
    await world.fake.personSendsAll([LONG, "two", "three"].map((text) => ({ from: BOB.id, group: TEAM, text })));
    await waitFor(() => world.running.events.length >= 3, { message: "the three events" });
    expect(shown()).toEqual(["long", "two", "three"]);
  });

  it("a frame zca-js reads at once does not overtake an earlier one it is still decrypting", async () => {
    await pushSealedThenDeflated();
    expect(texts()).toEqual(["sealed", "two", "three"]);
  });

  it("after a reconnect, the new socket's frames keep Zalo's order too", async () => {
    await world.fake.server.dropWebSockets();
    await waitFor(() => world.running.logs.at("warn", true).some((r) => r.message.includes("listener disconnected")));
    await waitFor(() => world.running.instance.status().state === "running");
    expect(world.fake.listener.connections).toHaveLength(1);
    await pushSealedThenDeflated();
    expect(texts()).toEqual(["sealed", "two", "three"]);
  });

  it("a frame zca-js fails on (too short for a header): a warning naming its size, and the next frames arrive in order", async () => {
    world.fake.listener.connections[0]?.socket.send(Buffer.from([1, 2]));
    await pushSealedThenDeflated();
    expect(texts()).toEqual(["sealed", "two", "three"]);
    expect(world.running.logs.at("warn").map((r) => r.message)).toEqual([
      "zalouser: zca-js failed on a listener frame (2 bytes, no header): Invalid header",
    ]);
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
