import {
  ChorusError,
  type MessageRef,
  type ReactionIntent,
  type ReactResult,
  UnsupportedEmojiError,
} from "@chorus/core";
import type { TalkClient } from "./client.js";
import { messageNumber } from "./outbound.js";
import type { ReactionStore } from "./reaction-store.js";

/**
 * Executes the reaction intents core decided (DESIGN §2.2, Nextcloud Talk row: add-only). Core
 * refuses `remove`, empty emoji and `clearAll` before this code runs; only `add` arrives here.
 */
export class TalkReactions {
  constructor(
    private readonly client: TalkClient,
    private readonly store: ReactionStore,
  ) {}

  /** Adds the bot's reaction to a message; adding one it already holds is success (rule 10). */
  async react(ref: MessageRef, intent: ReactionIntent): Promise<ReactResult> {
    if (intent.op !== "add") {
      throw new ChorusError(
        "E_UNSUPPORTED",
        "Reactions cannot be removed on Nextcloud Talk: the channel is add-only for bots.",
      );
    }
    const emoji = platformEmoji(intent);
    const id = messageNumber(ref);
    // The record answers "already there" without a request; Talk's 200 covers a lost record.
    if (this.store.get(ref.conversationId, String(id)).includes(emoji)) {
      return { ok: true, action: "react", op: "add", emoji };
    }
    await this.client.call({
      method: "POST",
      path: `/${encodeURIComponent(ref.conversationId)}/reaction/${id}`,
      signed: emoji,
      body: { reaction: emoji },
      operation: `react to message ${id} in ${ref.conversationId}`,
    });
    await this.store.add(ref.conversationId, String(id), emoji);
    return { ok: true, action: "react", op: "add", emoji };
  }
}

/**
 * Rule 9: the emoji as Talk takes it, one standard emoji in the form Talk's own emoji picker
 * sends, so `thumbsup`, `:+1:`, `👍` and `👍️` are one reaction.
 */
export function platformEmoji(intent: ReactionIntent): string {
  if (intent.resolved) {
    // Talk stores the string as sent and does not normalise, so `👍` and `👍️` would be two
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
