import type { BotReactionRecord, HttpClient } from "@chorus/channel-kit";
import {
  type ChannelInstance,
  type MessageRef,
  type ReactionIntent,
  type ReactResult,
  UnsupportedEmojiError,
} from "@chorus/core";
import { BOT_API_PATH } from "./client.js";
import { messageNumber } from "./outbound.js";

/** What the instance calls to react. */
export type TalkReactions = Pick<ChannelInstance, "react">;

/**
 * Executes the reaction intents core decided (DESIGN §2.2, Nextcloud Talk row: add-only). Core
 * refuses `remove`, empty emoji and `clearAll` before this code runs (rule 2): only `add` arrives.
 * `record` is what the bot already holds: it lets rule 10 answer without a request. Nothing ever
 * clears on this add-only channel, so a lost record only costs a request (Talk answers 200
 * "already there").
 */
export function createReactions(client: HttpClient, record: BotReactionRecord): TalkReactions {
  return {
    /** Adds the bot's reaction to a message; adding one it already holds is success (rule 10). */
    async react(ref: MessageRef, intent: ReactionIntent): Promise<ReactResult> {
      const emoji = platformEmoji(intent);
      const id = messageNumber(ref);
      const target = { conversationId: ref.conversationId, messageId: String(id) };
      // Alone on the message (`record.exclusive`): the record is read, then written after Talk answered.
      return record.exclusive(target, async (): Promise<ReactResult> => {
        if ((await record.held(target)).includes(emoji)) return { ok: true, action: "react", op: "add", emoji };
        await client.request({
          method: "POST",
          path: `${BOT_API_PATH}/${encodeURIComponent(ref.conversationId)}/reaction/${id}`,
          json: { reaction: emoji },
          operation: `react to message ${id} in ${ref.conversationId}`,
          // Talk answers 200 for a reaction the bot already holds: sending it twice changes nothing.
          idempotent: true,
        });
        await record.change(target, (held) => (held.includes(emoji) ? held : [...held, emoji]));
        return { ok: true, action: "react", op: "add", emoji };
      });
    },
  };
}

/**
 * Rule 9: the emoji as Talk takes it, one standard emoji in the form Talk's own emoji picker
 * sends, so `thumbsup`, `:+1:`, `👍` and `👍️` are one reaction.
 */
export function platformEmoji(intent: ReactionIntent): string {
  if (intent.resolved) {
    // Talk stores the string as sent and does not normalize, so `👍` and `👍️` would be two
    // reactions. Send what Talk's picker sends: the bare code point where it is an emoji on its
    // own (`👍`), with U+FE0F where it needs one to be an emoji (`❤️`), sequences as written.
    const { bare, unicode } = intent.resolved;
    if ([...bare].length !== 1) return unicode;
    return /\p{Emoji_Presentation}/u.test(bare) ? bare : `${bare}\uFE0F`;
  }
  const given = intent.emoji ?? "";
  throw new UnsupportedEmojiError(
    `"${given}" is not an emoji Nextcloud Talk knows; it accepts one standard unicode emoji per reaction.`,
    given,
    [],
    'Use a standard emoji or its shortcode, such as "👍" or "thumbsup".',
  );
}
