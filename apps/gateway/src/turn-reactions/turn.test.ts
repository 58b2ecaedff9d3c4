import { performReaction } from "@chorus/core";
import { eventually } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { gatewayConfigSchema, type MessagesConfig } from "../config/index.js";
import { ManualClock, openWorld, type ReactionWorld } from "./support.test.util.js";
import { TurnReactions, type TurnReactionsOptions } from "./turn.js";

const worlds: ReactionWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

/** `messages` as the gateway config would hold it, defaults applied by the real schema. */
const messagesConfig = (messages: Record<string, unknown> = {}): MessagesConfig =>
  gatewayConfigSchema.parse({ messages }).messages;

async function turn(
  kind: "multi" | "single",
  messages: Record<string, unknown>,
  options: Partial<TurnReactionsOptions> = {},
) {
  const w = await openWorld(kind);
  worlds.push(w);
  const message = w.userMessage();
  const clock = new ManualClock();
  const reactions = new TurnReactions({
    target: w.target(message),
    messages: messagesConfig(messages),
    chatType: "group",
    mentioned: true,
    reactionLevel: "minimal",
    clock,
    ...options,
  });
  return { w, message, clock, reactions };
}

describe("messages config for runtime reactions", () => {
  it("defaults: remove the ack, ✅ when done, status reactions off with 700 ms debounce and a 30 s stall hint", () => {
    expect(messagesConfig()).toEqual({
      ackReaction: "👀",
      ackReactionScope: "group-mentions",
      ackReactionAfter: "remove",
      doneReaction: "✅",
      groupChat: {},
      statusReactions: {
        enabled: false,
        debounceMs: 700,
        stallMs: 30_000,
        emojis: { queued: "👀", thinking: "🤔", tool: "🛠️", done: "✅", error: "❌", stall: "⏳" },
      },
    });
    expect(gatewayConfigSchema.parse({}).messages).toEqual(messagesConfig());
  });

  it("keeps the defaults of the emoji not set", () => {
    const config = messagesConfig({ statusReactions: { enabled: true, emojis: { tool: "🔧" } } });
    expect(config.statusReactions.emojis).toMatchObject({ queued: "👀", tool: "🔧", done: "✅" });
  });

  it("rejects unknown keys and wrong values", () => {
    expect(gatewayConfigSchema.safeParse({ messages: { ackReactionAfter: "keep" } }).success).toBe(false);
    expect(gatewayConfigSchema.safeParse({ messages: { doneReaction: "" } }).success).toBe(false);
    expect(gatewayConfigSchema.safeParse({ messages: { statusReactions: { debounceMs: -1 } } }).success).toBe(false);
    expect(
      gatewayConfigSchema.safeParse({ messages: { statusReactions: { emojis: { coding: "👨‍💻" } } } }).success,
    ).toBe(false);
  });
});

describe("TurnReactions", () => {
  it("is inert where the ack scope does not apply, or at reactionLevel off", async () => {
    const quiet = await turn("multi", {}, { mentioned: false });
    const off = await turn("multi", { ackReactionScope: "all" }, { reactionLevel: "off" });
    const none = await turn("multi", { ackReaction: "" });
    for (const { w, message, reactions } of [quiet, off, none]) {
      reactions.begin();
      reactions.progress("thinking");
      await reactions.end("done");
      expect(w.held(message)).toEqual([]);
      expect(w.reactionRequests()).toEqual([]);
    }
    expect([quiet.reactions.active, off.reactions.active]).toEqual([false, false]);
  });

  it("without status reactions: the ack, removed after NO_REPLY", async () => {
    const { w, message, reactions } = await turn("multi", {});
    expect(reactions.active).toBe(true);
    reactions.begin();
    await eventually(() => expect(w.held(message)).toEqual(["👀"]));
    reactions.progress("tool");
    await reactions.end("noreply");
    expect(w.held(message)).toEqual([]);
  });

  it("without status reactions: the ack replaced by the done reaction when configured", async () => {
    const { w, message, reactions } = await turn("single", { ackReactionAfter: "done", doneReaction: "🙌" });
    reactions.begin();
    await reactions.end("done");
    expect(w.held(message)).toEqual(["🙌"]);
  });

  it("with status reactions: queued at once, then debounced progress, then the final state", async () => {
    const { w, message, clock, reactions } = await turn("multi", {
      statusReactions: { enabled: true, emojis: { tool: "🔧" } },
    });
    reactions.begin();
    await eventually(() => expect(w.held(message)).toEqual(["👀"]));
    reactions.progress("thinking");
    clock.advance(700);
    await eventually(() => expect(w.held(message)).toEqual(["🤔"]));
    reactions.progress("tool");
    clock.advance(700);
    await eventually(() => expect(w.held(message)).toEqual(["🔧"]));
    await reactions.end("error");
    expect(w.held(message)).toEqual(["❌"]);
  });

  it("with status reactions: NO_REPLY leaves nothing behind", async () => {
    const { w, message, clock, reactions } = await turn("single", { statusReactions: { enabled: true } });
    reactions.begin();
    reactions.progress("thinking");
    clock.advance(700);
    await eventually(() => expect(w.held(message)).toEqual(["🤔"]));
    await reactions.end("noreply");
    expect(w.held(message)).toEqual([]);
  });

  it("with status reactions: retarget and the agent's own reaction are passed on", async () => {
    const { w, message, clock, reactions } = await turn("single", { statusReactions: { enabled: true } });
    const reply = await w.botMessage();
    reactions.begin();
    await eventually(() => expect(w.held(message)).toEqual(["👀"]));
    // The agent reacts on the message being answered: on one slot, that reaction is its to keep.
    const result = await performReaction({ ...w.target(message), call: { emoji: "🎉" } });
    reactions.agentReacted(message.messageId, result);
    // Then it moves the status to the reply (trackToolCalls).
    reactions.retarget(reply);
    reactions.progress("thinking");
    clock.advance(700);
    await reactions.end("done");
    expect(w.held(message)).toEqual(["🎉"]);
    expect(w.held(reply)).toEqual(["✅"]);
  });
});
