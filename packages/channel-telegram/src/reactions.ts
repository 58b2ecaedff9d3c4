import { BotReactionRecord, type CachedLookup, type ReactionTarget } from "@chorus/channel-kit";
import {
  type ChannelInstance,
  type ChannelStore,
  ChorusError,
  type MessageRef,
  type ReactionIntent,
  type ReactResult,
  UnsupportedEmojiError,
  unsupportedEmoji,
} from "@chorus/core";
import type { Api } from "grammy";
import type { ReactionType } from "grammy/types";
import type { AllowedReactions } from "./chat-reactions.js";
import { addressOf } from "./ref.js";
import { reactionKey, type TelegramReactionForm, telegramVocabulary, toTelegramReaction } from "./vocabulary.js";

const LABEL = "Telegram";

/** What the instance calls to react. */
export type TelegramReactions = Pick<ChannelInstance, "react">;

/**
 * Executes core's reaction intents the Telegram way (DESIGN §2.2 row Telegram): one slot per
 * message, `setMessageReaction` with a one-element array adds (and replaces), `[]` clears.
 * What the bot holds is its bot reaction record in the store (keyed by the chat Telegram knows the
 * message in, `botReactions/<chatId>/<messageId>`), because Telegram never reports it.
 */
export function createReactions(
  api: Api,
  store: ChannelStore,
  allowed: CachedLookup<AllowedReactions>,
  isBig: () => boolean,
): TelegramReactions {
  /** Calls on one message run in the order they were made. */
  const record = new BotReactionRecord(store);

  /**
   * Rule 9: the emoji in Telegram's form, allowed in this chat. Refuses with the closest allowed
   * emoji (of the chat's own set where admins narrowed it) when it is not.
   */
  const platformReaction = async (chatId: string, emoji: string): Promise<NonNullable<TelegramReactionForm>> => {
    const form = toTelegramReaction(emoji);
    if (!form) throw unsupportedEmoji(emoji, telegramVocabulary, LABEL);
    const permitted = await allowed.get(chatId);
    if (form.type === "emoji" && !permits(permitted, form.emoji)) {
      const vocabulary = telegramVocabulary.restrict(permitted.emoji ?? []);
      throw new UnsupportedEmojiError(
        `"${emoji}" is not allowed in this Telegram chat: its admins limited reactions to ${permitted.emoji?.length ?? 0} emoji.`,
        emoji,
        vocabulary.closest(emoji, 3),
      );
    }
    return form;
  };

  const apply = async (
    chatId: string,
    messageId: number,
    target: ReactionTarget,
    intent: ReactionIntent,
  ): Promise<ReactResult> => {
    const held = await record.held(target);
    if (intent.op === "clear") {
      // Always sent: the record may be older than the message (a restart on an empty store).
      await api.setMessageReaction(chatId, messageId, []);
      await record.hold(target, []);
      return { ok: true, action: "react", op: "clear", removed: held };
    }
    // Refused BEFORE any request: an emoji Telegram cannot take never reaches it.
    const form = await platformReaction(chatId, intent.emoji ?? "");
    const key = reactionKey(form) as string;
    if (intent.op === "remove") {
      if (!held.includes(key)) return { ok: true, action: "react", op: "remove", emoji: key, removed: [] };
      const rest = held.filter((r) => r !== key);
      await api.setMessageReaction(chatId, messageId, rest.map(toReactionType));
      await record.hold(target, rest);
      return { ok: true, action: "react", op: "remove", emoji: key, removed: [key] };
    }
    // Rule 10: the slot already holds exactly this reaction.
    if (held.length === 1 && held[0] === key) return { ok: true, action: "react", op: "add", emoji: key };
    await api.setMessageReaction(chatId, messageId, [form], isBig() ? { is_big: true } : {});
    await record.hold(target, [key]);
    return { ok: true, action: "react", op: "add", emoji: key, ...(held.length > 0 ? { removed: held } : {}) };
  };

  return {
    /**
     * Adds (replacing), removes or clears the bot's reaction on one message. Calls on the same
     * message are serialised: with one slot, the order they reach Telegram decides what stays.
     */
    async react(ref: MessageRef, intent: ReactionIntent): Promise<ReactResult> {
      const address = addressOf(ref);
      if (!address) {
        throw new ChorusError(
          "E_MESSAGE_NOT_FOUND",
          `message ${ref.messageId} in ${ref.conversationId} is not a Telegram message`,
        );
      }
      // One call at a time per message, with this instance's successor too (the record's own lock).
      const { chatId, messageId } = address;
      const target: ReactionTarget = { conversationId: chatId, messageId: String(messageId) };
      return record.exclusive(target, () => apply(chatId, messageId, target, intent));
    },
  };
}

function permits(allowed: AllowedReactions, emoji: string): boolean {
  return allowed.emoji === undefined || allowed.emoji.includes(emoji);
}

function toReactionType(key: string): ReactionType {
  const form = toTelegramReaction(key);
  return (form ?? { type: "custom_emoji", custom_emoji_id: key }) as ReactionType;
}
