import { type InboundEvent, isChorusError } from "@chorus/core";
import { type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signalChannel } from "./index.js";
import { type FakeGroup, type FakePerson, FakeSignal } from "./testing/index.js";

let fake: FakeSignal;
let running: RunningChannel;
let ann: FakePerson;
let team: FakeGroup;

beforeEach(async () => {
  fake = new FakeSignal({ keepAliveMs: 100 });
  await fake.start();
  ann = fake.state.addPerson({ number: "+15550002222", name: "Ann" });
  team = fake.state.addGroup({ name: "Team", members: [ann] });
  running = await startChannel(signalChannel, {
    config: fake.config({ timeoutMs: 500, retries: 0, reconnectMinMs: 20, reconnectMaxMs: 200 }),
  });
});

afterEach(async () => {
  await running?.stop();
  await fake.close();
});

const texts = () => running.events.map((e) => (e.type === "message" ? e.text : e.type));
const saying = (text: string) => (e: InboundEvent) => e.type === "message" && e.text === text;
/** How often the daemon wrote an envelope carrying `text` to the event stream. */
const written = (text: string) => fake.events.written.filter((data) => data.includes(`"message":"${text}"`)).length;

describe("receive: signal-cli's event stream has no acknowledgement, so what is not committed is kept", () => {
  it("a commit the gateway refuses: the daemon never sends the event again, the plugin emits it again, committed once", async () => {
    running.refuseCommit(saying("keep me"));
    fake.people.sends({ from: ann, group: team, text: "keep me" });
    await running.waitForEvent(saying("keep me"));
    // Written once, and nothing went back to the daemon about it: there is nothing to acknowledge.
    expect(written("keep me")).toBe(1);
    expect(fake.server.requests.map((r) => `${r.method} ${r.path}`)).not.toContain("POST /api/v1/events");
    expect(running.refused.map((e) => e.eventId)).toEqual([running.events[0]?.eventId]);
    expect(texts()).toEqual(["keep me"]);
    expect(running.duplicates).toEqual([]);
    const refused = running.logs.at("warn").find((r) => r.message.includes("could not commit"));
    expect(refused?.message).toBe(
      "signal: the gateway could not commit an event; it is kept and emitted again until it is",
    );
    expect(isChorusError(refused?.fields.err)).toBe(true);
    await waitFor(() => running.logs.at("info").some((r) => r.message.includes("kept after a failed commit")));
  });

  it("events reach the gateway in the stream's order, also when a group lookup comes first", async () => {
    fake.people.sends({ from: ann, group: team, text: "first, in the group" });
    fake.people.sends({ from: ann, text: "second, direct" });
    fake.people.sends({ from: ann, group: team, text: "third" });
    await running.waitForEvent(saying("third"));
    expect(texts()).toEqual(["first, in the group", "second, direct", "third"]);
  });

  it("an event it cannot read: a warning naming the problem, nothing kept, and the next one arrives", async () => {
    fake.people.deliverUnparseable();
    fake.people.sends({ from: ann, text: "after" });
    await running.waitForEvent(saying("after"));
    expect(texts()).toEqual(["after"]);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      expect.stringMatching(
        /^signal: skipped a delivery it cannot read: unreadable receive event: envelope\.timestamp: .*envelope\.dataMessage\.message/,
      ),
    ]);
    expect(running.refused).toEqual([]);
  });
});
