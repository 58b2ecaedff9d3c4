import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BotReactionRecord } from "@chorus/channel-kit";
import { type MessageRef, performReaction } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signalChannel } from "./index.js";
import { type FakeGroup, type FakePerson, FakeSignal } from "./testing/index.js";

let fake: FakeSignal;
let running: RunningChannel;
let ann: FakePerson;
let team: FakeGroup;
let ref: MessageRef;
let stateDir: string;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "signal-reactions-"));
  fake = new FakeSignal({ keepAliveMs: 0 });
  await fake.start();
  ann = fake.state.addPerson({ number: "+15550002222", name: "Ann" });
  team = fake.state.addGroup({ name: "Team", members: [ann] });
  running = await startChannel(signalChannel, { config: fake.config(), stateDir });
  // Ann's message, as the gateway would have its ref from the inbound event.
  fake.people.sends({ from: ann, group: team, text: "react to me" });
  const event = await running.waitForEvent((e) => e.type === "message");
  if (event.type !== "message") throw new Error("no message");
  ref = event.ref;
});

afterEach(async () => {
  await running.stop();
  await fake.close();
  await rm(stateDir, { recursive: true, force: true });
});

/** A `react` call the way the agent makes it: core's rules (DESIGN §2.2), then the plugin. */
const react = (call: Record<string, unknown>, target = ref, instance = running.instance) =>
  performReaction({ plugin: signalChannel, instance, ref: target, call });
const onSignal = () => fake.botReactions(ann.uuid, Number(ref.messageId));
const calls = () =>
  fake
    .calls("sendReaction")
    .map((p) => `${p.remove ? "remove" : "set"} ${p.emoji} on ${p.targetAuthor}@${p.targetTimestamp}`);
const at = () => `${ann.uuid}@${ref.messageId}`;

describe("reactions on Signal (singleSlot)", () => {
  it("sends sendReaction with the target's author and timestamp into the group, any emoji, shortcodes too", async () => {
    expect(await react({ emoji: "thumbsup" })).toEqual({ ok: true, action: "react", op: "add", emoji: "👍" });
    expect(fake.calls("sendReaction")).toEqual([
      {
        account: fake.account,
        groupId: team.id,
        emoji: "👍",
        targetAuthor: ann.uuid,
        targetTimestamp: Number(ref.messageId),
      },
    ]);
    await react({ emoji: "🦜" });
    expect(onSignal()).toEqual(["🦜"]);
  });

  it("replaces the bot's reaction with a new one, and adds what is there without a request (rule 10)", async () => {
    await react({ emoji: "👍" });
    await react({ emoji: "❤" });
    await react({ emoji: "❤️" });
    expect(onSignal()).toEqual(["❤️"]);
    expect(calls()).toEqual([`set 👍 on ${at()}`, `set ❤️ on ${at()}`]);
    expect(await running.store.get(BotReactionRecord.key(ref))).toEqual(["❤️"]);
  });

  it("remove: true takes back the held emoji, also when the call named another one", async () => {
    await react({ emoji: "🎉" });
    expect(await react({ emoji: "👍", remove: true })).toEqual({
      ok: true,
      action: "react",
      op: "clear",
      removed: ["🎉"],
    });
    expect(calls()).toEqual([`set 🎉 on ${at()}`, `remove 🎉 on ${at()}`]);
    expect(onSignal()).toEqual([]);
    expect(await running.store.get(BotReactionRecord.key(ref))).toBeUndefined();
    // Nothing held: nothing to send.
    expect(await react({ emoji: "👍", remove: true })).toMatchObject({ op: "clear", removed: [] });
    expect(calls()).toHaveLength(2);
  });

  it('refuses emoji "" with E_EMOJI_REQUIRED and clearAll with E_UNSUPPORTED (Signal has no clear-all)', async () => {
    await react({ emoji: "👍" });
    await expect(react({ emoji: "" })).rejects.toMatchObject({ code: "E_EMOJI_REQUIRED" });
    await expect(react({ clearAll: true })).rejects.toMatchObject({ code: "E_UNSUPPORTED" });
    await expect(react({ emoji: "", remove: true })).rejects.toMatchObject({ code: "E_EMOJI_REQUIRED" });
    expect(onSignal()).toEqual(["👍"]);
  });

  it("refuses what is not one emoji with E_UNSUPPORTED_EMOJI naming the quick reactions, before any request", async () => {
    const error = await react({ emoji: ":partyparrot:" }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "E_UNSUPPORTED_EMOJI",
      message: '":partyparrot:" is not an allowed reaction on Signal.',
    });
    expect((error as { details: { alternatives: string[] } }).details.alternatives.length).toBeGreaterThan(0);
    await expect(react({ emoji: "👍👍" })).rejects.toMatchObject({ code: "E_UNSUPPORTED_EMOJI" });
    expect(calls()).toEqual([]);
  });

  it("fails with E_MESSAGE_NOT_FOUND for a ref whose author is not known, never reacting to a guess", async () => {
    const { data: _data, ...bare } = ref;
    await expect(react({ emoji: "👍" }, bare)).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    expect(calls()).toEqual([]);
  });

  it("keeps the record across a restart: the new process takes back what the old one set", async () => {
    await react({ emoji: "🔥" });
    await running.stop();
    running = await startChannel(signalChannel, { config: fake.config(), stateDir });
    expect(await react({ emoji: "👍", remove: true })).toMatchObject({ op: "clear", removed: ["🔥"] });
    expect(onSignal()).toEqual([]);
    expect(calls().at(-1)).toBe(`remove 🔥 on ${at()}`);
  });

  it("reacts to a direct message by recipient, and to the bot's own message with its number as author", async () => {
    fake.people.sends({ from: ann, text: "dm" });
    const dm = await running.waitForEvent((e) => e.type === "message" && e.text === "dm");
    if (dm.type !== "message") throw new Error("no message");
    await react({ emoji: "👀" }, dm.ref);
    const own = await running.instance.send({ id: team.id }, { text: "mine" });
    await react({ emoji: "✅" }, own);
    expect(fake.calls("sendReaction").map((p) => [p.recipient ?? p.groupId, p.targetAuthor])).toEqual([
      [[ann.uuid], ann.uuid],
      [team.id, fake.account],
    ]);
    expect(fake.botReactions(fake.account, Number(own.messageId))).toEqual(["✅"]);
  });
});
