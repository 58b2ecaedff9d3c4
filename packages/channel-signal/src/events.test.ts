import { type RunningChannel, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signalChannel } from "./index.js";
import { type FakeGroup, type FakePerson, FakeSignal } from "./testing/index.js";

let fake: FakeSignal;
let running: RunningChannel;
let ann: FakePerson;
let team: FakeGroup;

const start = async (extra: Record<string, unknown> = {}) => {
  running = await startChannel(signalChannel, {
    config: fake.config({ timeoutMs: 500, retries: 0, reconnectMinMs: 20, reconnectMaxMs: 200, ...extra }),
  });
};

beforeEach(async () => {
  fake = new FakeSignal({ keepAliveMs: 100 });
  await fake.start();
  ann = fake.state.addPerson({ number: "+15550002222", name: "Ann" });
  team = fake.state.addGroup({ name: "Team", members: [ann] });
});

afterEach(async () => {
  await running?.stop();
  await fake.close();
});

const texts = () => running.events.map((e) => (e.type === "message" ? e.text : `${e.type} ${e.emoji}`));
const said = (text: string) => running.waitForEvent((e) => e.type === "message" && e.text === text);
const warnings = () => running.logs.at("warn").map((r) => r.message);

describe("the event stream", () => {
  it("is degraded with the reason while the daemon is down, and gets what was sent meanwhile once it is back", async () => {
    await start();
    const port = await fake.stop();
    // First the stream breaks, then connecting again is refused.
    await waitFor(() => /ECONNREFUSED/.test(running.instance.status().detail ?? ""));
    expect(running.instance.status()).toEqual({
      state: "degraded",
      detail: `signal-cli unreachable at ${fake.url}: ECONNREFUSED`,
    });
    // Signal keeps what arrives while no client listens (receive mode on-connection).
    fake.people.sends({ from: ann, group: team, text: "while you were away" });
    await fake.resume(port);
    await said("while you were away");
    await waitFor(() => running.instance.status().state === "running");
    expect(fake.events.connections).toBe(2);
  });

  it("reconnects when the daemon restarts or drops the stream", async () => {
    await start();
    await fake.restart();
    fake.people.sends({ from: ann, text: "after the restart" });
    await said("after the restart");
    fake.events.dropAll();
    fake.people.sends({ from: ann, text: "after the drop" });
    await said("after the drop");
    expect(texts()).toEqual(["after the restart", "after the drop"]);
    expect(fake.events.connections).toBe(3);
  });

  it("counts a silent stream (no keep-alive) as dead and connects again", async () => {
    await start({ idleTimeoutMs: 600 });
    fake.events.silenceAll();
    await waitFor(() => fake.events.connections === 2, { timeoutMs: 5_000 });
    fake.people.sends({ from: ann, text: "still there?" });
    await said("still there?");
  });

  it("says why an answer that is not an event stream is refused, and recovers once the daemon heals", async () => {
    await start();
    fake.fault("garbage");
    fake.events.dropAll();
    await waitFor(() => /not text/.test(running.instance.status().detail ?? ""));
    expect(running.instance.status().detail).toBe(
      "signal-cli answered the event stream with application/json; charset=utf-8, not text/event-stream",
    );
    fake.heal();
    fake.people.sends({ from: ann, text: "healed" });
    await said("healed");
  });
});

describe("what arrives on it", () => {
  beforeEach(() => start());

  it("emits people's messages with the group's title and members from listGroups, asked once", async () => {
    fake.people.sends({ from: ann, group: team, text: "one" });
    fake.people.sends({ from: ann, group: team, text: "two" });
    await said("two");
    expect(running.events[0]).toMatchObject({
      conversation: {
        id: team.id,
        kind: "group",
        title: "Team",
        members: [
          { id: fake.bot.uuid, isBot: true },
          { id: ann.uuid, name: "Ann", e164: ann.number },
        ],
      },
    });
    expect(fake.calls("listGroups")).toEqual([{ account: fake.account, groupId: [team.id] }]);
  });

  it("emits reactions, the owner's messages from the phone, and nothing for typing or receipts", async () => {
    const own = await running.instance.send({ id: team.id }, { text: "vote" });
    fake.people.typesAndConfirms(ann, team);
    fake.people.reacts({
      from: ann,
      group: team,
      target: { author: fake.bot, timestamp: Number(own.messageId) },
      emoji: "👍",
    });
    fake.people.ownerSends({ group: team, text: "/activation always" });
    fake.people.ownerSends({ to: ann, text: "private" });
    fake.people.sends({ from: ann, text: "end" });
    await said("end");
    expect(texts()).toEqual(["reaction 👍", "/activation always", "end"]);
    expect(running.events[0]).toMatchObject({ target: { messageId: own.messageId, fromBot: true }, action: "added" });
    expect(running.events[1]).toMatchObject({ sender: { id: fake.bot.uuid, e164: fake.account } });
  });

  it("drops a redelivery by its eventId", async () => {
    fake.people.sends({ from: ann, text: "ping" });
    fake.people.redeliverLast();
    fake.people.sends({ from: ann, text: "pong" });
    await said("pong");
    expect(texts()).toEqual(["ping", "pong"]);
    expect(running.duplicates).toHaveLength(1);
  });

  it("warns about a message signal-cli could not decrypt, and about events for another account", async () => {
    const untrusted = { message: "Untrusted identity key!", type: "UntrustedIdentityException" };
    fake.events.send(
      JSON.stringify({
        account: fake.account,
        exception: untrusted,
        envelope: { timestamp: 1, sourceNumber: "+15550003333" },
      }),
    );
    fake.events.send(JSON.stringify({ account: "+15559990000", envelope: { timestamp: 2 } }));
    fake.events.send(JSON.stringify({ account: "+15559990000", envelope: { timestamp: 3 } }));
    fake.people.sends({ from: ann, text: "after" });
    await said("after");
    expect(warnings()).toEqual([
      "signal: signal-cli could not read a message from +15550003333: Untrusted identity key!",
      `signal: the daemon at ${fake.url} receives for +15559990000, not ${fake.account}; its events are skipped`,
    ]);
  });
});
