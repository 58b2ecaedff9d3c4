import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BotReactionRecord } from "@chorus/channel-kit";
import { type MessageRef, performReaction } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acmeChannel } from "./index.js";
import { ACME_REACTION_NAMES, createFakeAcme, type FakeAcme } from "./testing/index.js";

let fake: FakeAcme;
let running: RunningChannel;
let ref: MessageRef;

beforeEach(async () => {
  fake = createFakeAcme();
  await fake.start();
  fake.addConversation({ id: "c_team", type: "group", name: "Team" });
  running = await startChannel(acmeChannel, { config: fake.config() });
  ref = await running.instance.send({ id: "c_team" }, { text: "react to me" });
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

/** A `react` call the way the agent makes it: core's rules, then the plugin. */
const react = (call: Record<string, unknown>, target = ref) =>
  performReaction({ plugin: acmeChannel, instance: running.instance, ref: target, call });

const reactionRequests = () =>
  fake.server.requests
    .filter((r) => r.path.includes("/reactions"))
    .map((r) => `${r.method} ${r.path.replace(`/v1/messages/${ref.messageId}`, "")} → ${r.status}`);

/** What the bot reaction record in the store says the bot holds on `ref`. */
const recorded = () => running.store.get(BotReactionRecord.key(ref));

describe("the vocabulary", () => {
  it("maps unicode, shortcodes and Acme's own names onto Acme's names", async () => {
    for (const emoji of ["👍", ":thumbsup:", "+1", "thumbs_up"]) {
      expect(await react({ emoji })).toEqual({ ok: true, action: "react", op: "add", emoji: "thumbs_up" });
    }
    for (const emoji of ["❤️", "❤", "tada", "party", "👀"]) await react({ emoji });
    expect(fake.botReactions(ref.messageId)).toEqual(["thumbs_up", "heart", "party", "eyes"]);
    expect(reactionRequests().slice(0, 2)).toEqual([
      "PUT /reactions/thumbs_up → 204",
      "PUT /reactions/thumbs_up → 409",
    ]);
  });

  it("refuses an emoji outside it with E_UNSUPPORTED_EMOJI and the closest names, before calling Acme", async () => {
    const error = await react({ emoji: "🤣" }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "E_UNSUPPORTED_EMOJI",
      message: '"🤣" is not an allowed reaction on Acme Chat.',
    });
    expect((error as { details: { alternatives: string[] } }).details.alternatives[0]).toBe("laugh");
    await expect(react({ emoji: ":partyparrot:" })).rejects.toMatchObject({ code: "E_UNSUPPORTED_EMOJI" });
    expect(reactionRequests()).toEqual([]);
    expect(await recorded()).toBeUndefined();
  });

  it("is declared on the plugin (the agent's tool schema lists it), and is exactly Acme's set", () => {
    expect(acmeChannel.capabilities.reactions.vocabulary).toEqual(ACME_REACTION_NAMES);
    expect(acmeChannel.vocabulary?.lookup("😮")).toBe("wow");
  });
});

describe("reactions on Acme", () => {
  it("treats Acme's already_reacted and reaction_not_found as success (rule 10)", async () => {
    await react({ emoji: "fire" });
    await react({ emoji: "🔥" });
    expect(await react({ emoji: "party", remove: true })).toEqual({
      ok: true,
      action: "react",
      op: "remove",
      emoji: "party",
      removed: [],
    });
    expect(reactionRequests()).toEqual([
      "PUT /reactions/fire → 204",
      "PUT /reactions/fire → 409",
      "DELETE /reactions/party → 404",
    ]);
    expect(fake.botReactions(ref.messageId)).toEqual(["fire"]);
  });

  it("keeps the bot reaction record in the store as it adds and removes", async () => {
    await react({ emoji: "👍" });
    await react({ emoji: "❤️" });
    expect(await recorded()).toEqual(["thumbs_up", "heart"]);
    await react({ emoji: "👍", remove: true });
    expect(await recorded()).toEqual(["heart"]);
    expect(fake.botReactions(ref.messageId)).toEqual(["heart"]);
  });

  it("clears by removing what the record says the bot added, never anyone else's", async () => {
    await fake.userReacts(ref.messageId, "u_ann", "thumbs_up");
    await react({ emoji: "👍" });
    await react({ emoji: "🔥" });
    expect(await react({ emoji: "" })).toEqual({
      ok: true,
      action: "react",
      op: "clear",
      removed: ["thumbs_up", "fire"],
    });
    expect(reactionRequests().slice(-2)).toEqual(["DELETE /reactions/thumbs_up → 204", "DELETE /reactions/fire → 204"]);
    expect(fake.botReactions(ref.messageId)).toEqual([]);
    expect(fake.reactionsBy(ref.messageId, "u_ann")).toEqual(["thumbs_up"]);
    expect(await recorded()).toBeUndefined();
  });

  it("clears a reaction someone removed on Acme meanwhile without an error", async () => {
    await react({ emoji: "👍" });
    fake.state.removeReaction(ref.messageId, "u_bot", "thumbs_up");
    expect(await react({ clearAll: true })).toMatchObject({ op: "clear", removed: [] });
    expect(await recorded()).toBeUndefined();
  });

  it("has no listing, as Acme has none", () => {
    expect(acmeChannel.capabilities.reactions.list).toBe(false);
    expect(running.instance.listReactions).toBeUndefined();
  });

  it("fails with E_MESSAGE_NOT_FOUND on a missing message", async () => {
    const gone = { ...ref, messageId: "msg_999" };
    await expect(react({ emoji: "👍" }, gone)).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    await expect(react({ emoji: "👍", remove: true }, gone)).rejects.toMatchObject({
      code: "E_MESSAGE_NOT_FOUND",
      platformCode: "message_not_found",
    });
  });
});

describe("after a restart", () => {
  it("clears what an earlier process added: the record is in the store on disk", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), "acme-restart-"));
    try {
      const before = await startChannel(acmeChannel, { config: fake.config(), stateDir });
      await performReaction({ plugin: acmeChannel, instance: before.instance, ref, call: { emoji: "🎉" } });
      await performReaction({ plugin: acmeChannel, instance: before.instance, ref, call: { emoji: "👀" } });
      await before.stop();

      const after = await startChannel(acmeChannel, { config: fake.config(), stateDir });
      const cleared = await performReaction({
        plugin: acmeChannel,
        instance: after.instance,
        ref,
        call: { emoji: "" },
      });
      await after.stop();
      expect(cleared).toMatchObject({ op: "clear", removed: ["party", "eyes"] });
      expect(fake.botReactions(ref.messageId)).toEqual([]);
    } finally {
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});
