import { KeyedQueue, PlatformHttpError } from "@chorus/channel-kit";
import { type ChannelInstance, type MessageRef, type ReactionSummary, unsupportedEmoji } from "@chorus/core";
import type { FeishuApi } from "./api.js";
import { feishuVocabulary } from "./vocabulary.js";
import type { FeishuReaction } from "./wire.js";

/** Delete: "The request has an invalid reaction_id" — the reaction is gone already. */
const REACTION_GONE = "231011";

/**
 * Executes the intents core decided (DESIGN §2.2, row Feishu: clearAll "explicit", list). Feishu
 * lists who reacted, so nothing is recorded locally: the bot's own reactions are the ones whose
 * operator is this app (`operator_type` app, `operator_id` the app id). Calls on one message run
 * one after another, so two adds of one emoji cannot both find it missing.
 */
export function createReactions(api: FeishuApi, appId: string): Pick<ChannelInstance, "react" | "listReactions"> {
  const queue = new KeyedQueue();
  const own = (reaction: FeishuReaction) =>
    reaction.operator.operator_type === "app" && reaction.operator.operator_id === appId;
  const mine = async (ref: MessageRef, emojiType?: string) =>
    (await api.listReactions(ref.messageId, emojiType)).filter(own);
  /** Deletes the bot's reactions; resolves with the emoji_types of those it removed. */
  const remove = async (ref: MessageRef, reactions: FeishuReaction[]) => {
    const removed: string[] = [];
    for (const reaction of reactions) {
      if (await deleted(api.deleteReaction(ref.messageId, reaction.reaction_id))) {
        if (!removed.includes(reaction.reaction_type.emoji_type)) removed.push(reaction.reaction_type.emoji_type);
      }
    }
    return removed;
  };
  return {
    react: (ref, intent) =>
      queue.run(`${ref.conversationId}/${ref.messageId}`, async () => {
        if (intent.op === "clear") {
          // Every page, and only the app's own: another person's reaction is never touched.
          return { ok: true, action: "react", op: "clear", removed: await remove(ref, await mine(ref)) };
        }
        const given = intent.emoji ?? "";
        const emojiType = feishuVocabulary.lookup(given);
        // Refused before any request, naming the closest emoji_types Feishu does have.
        if (emojiType === undefined) throw unsupportedEmoji(given, feishuVocabulary, "Feishu");
        const held = await mine(ref, emojiType);
        if (intent.op === "add") {
          // Rule 10: adding what the bot already holds is success, without a second reaction.
          if (held.length === 0) await api.addReaction(ref.messageId, emojiType);
          return { ok: true, action: "react", op: "add", emoji: emojiType };
        }
        return { ok: true, action: "react", op: "remove", emoji: emojiType, removed: await remove(ref, held) };
      }),
    async listReactions(ref) {
      const byType = new Map<string, ReactionSummary>();
      for (const reaction of await api.listReactions(ref.messageId)) {
        const emoji = reaction.reaction_type.emoji_type;
        const summary = byType.get(emoji) ?? { emoji, count: 0, me: false };
        summary.count += 1;
        summary.me ||= own(reaction);
        byType.set(emoji, summary);
      }
      return [...byType.values()];
    },
  };
}

/** True when the delete removed the reaction; false when it was gone already (rule 10). */
async function deleted(call: Promise<void>): Promise<boolean> {
  try {
    await call;
    return true;
  } catch (error) {
    if (error instanceof PlatformHttpError && error.platformCode === REACTION_GONE) return false;
    throw error;
  }
}
