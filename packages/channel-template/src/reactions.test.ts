import { type MessageRef, performReaction } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acmeChannel } from "./index.js";
import { createFakeAcme, type FakeAcme } from "./testing/index.js";

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
    .map((r) => `${r.method} ${decodeURIComponent(r.path)} → ${r.status}`);

describe("reactions on Acme", () => {
  it("sends a shortcode as the bare unicode emoji", async () => {
    expect(await react({ emoji: ":thumbsup:" })).toEqual({ ok: true, action: "react", op: "add", emoji: "👍" });
    expect(await react({ emoji: "❤️" })).toMatchObject({ op: "add", emoji: "❤" });
    expect(reactionRequests()).toEqual([
      `PUT /v1/messages/${ref.messageId}/reactions/👍 → 204`,
      `PUT /v1/messages/${ref.messageId}/reactions/❤ → 204`,
    ]);
    expect(fake.botReactions(ref.messageId)).toEqual(["👍", "❤"]);
  });

  it("treats Acme's already_reacted and reaction_not_found answers as success", async () => {
    await react({ emoji: "👍" });
    expect(await react({ emoji: "thumbsup" })).toMatchObject({ ok: true, op: "add" });
    expect(await react({ emoji: "🎉", remove: true })).toEqual({
      ok: true,
      action: "react",
      op: "remove",
      emoji: "🎉",
      removed: [],
    });
    expect(reactionRequests().slice(1)).toEqual([
      `PUT /v1/messages/${ref.messageId}/reactions/👍 → 409`,
      `DELETE /v1/messages/${ref.messageId}/reactions/🎉 → 404`,
    ]);
    expect(fake.botReactions(ref.messageId)).toEqual(["👍"]);
  });

  it("clears only the bot's reactions through @me and reports what it removed", async () => {
    fake.userReacts(ref.messageId, "u_ann", "👍");
    await react({ emoji: "👍" });
    await react({ emoji: "🔥" });
    expect(await react({ emoji: "" })).toEqual({ ok: true, action: "react", op: "clear", removed: ["👍", "🔥"] });
    expect(reactionRequests().at(-1)).toBe(`DELETE /v1/messages/${ref.messageId}/reactions/@me → 200`);
    expect(fake.botReactions(ref.messageId)).toEqual([]);
    expect(fake.reactionsBy(ref.messageId, "u_ann")).toEqual(["👍"]);
  });

  it("lists everyone's reactions with counts and whether the bot is among them", async () => {
    fake.userReacts(ref.messageId, "u_ann", "👍");
    fake.userReacts(ref.messageId, "u_bob", "😂");
    await react({ emoji: "👍" });
    expect(await running.instance.listReactions?.(ref)).toEqual([
      { emoji: "👍", count: 2, me: true },
      { emoji: "😂", count: 1, me: false },
    ]);
  });

  it("refuses a custom emoji with E_UNSUPPORTED_EMOJI before calling Acme", async () => {
    await expect(react({ emoji: ":partyparrot:" })).rejects.toMatchObject({
      code: "E_UNSUPPORTED_EMOJI",
      hint: expect.stringContaining("standard emoji"),
    });
    expect(reactionRequests()).toEqual([]);
  });

  it("fails with E_MESSAGE_NOT_FOUND on a missing message, also when removing", async () => {
    const gone = { ...ref, messageId: "msg_999" };
    await expect(react({ emoji: "👍" }, gone)).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    await expect(react({ emoji: "👍", remove: true }, gone)).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    await expect(react({ clearAll: true }, gone)).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
  });
});
