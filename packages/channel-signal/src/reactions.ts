import type { BotReactionRecord } from "@chorus/channel-kit";
import {
  type ChannelInstance,
  defineVocabulary,
  type ReactionIntent,
  type ReactResult,
  stripVariationSelectors,
  unsupportedEmoji,
} from "@chorus/core";
import type { SignalRpc } from "./client.js";
import { addressOf, recipientParams } from "./refs.js";
import type { SignalSendResponse } from "./wire.js";

/** Signal's quick reactions: any emoji is allowed; these are only named when something else is refused. */
export const QUICK_REACTIONS = defineVocabulary(["❤️", "👍", "👎", "😂", "😮", "😢"]);

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

/**
 * The emoji as Signal gets it: one emoji grapheme (a shortcode becomes its emoji, in the fully
 * qualified form phones send), else `E_UNSUPPORTED_EMOJI` naming the quick reactions.
 */
export function signalEmoji(intent: ReactionIntent): string {
  const given = intent.emoji ?? "";
  const emoji = phoneForm(intent.resolved?.unicode ?? given);
  if ([...graphemes.segment(emoji)].length === 1 && PICTOGRAPH.test(emoji)) return emoji;
  throw unsupportedEmoji(given, QUICK_REACTIONS, "Signal");
}

/**
 * One emoji spelled as phones send it, so the bot's reaction counts with everyone's: a lone
 * character takes U+FE0F only when it is text by default (`❤` → `❤️`, `👍` stays); sequences
 * (ZWJ, keycaps, skin tones) keep the data set's spelling.
 */
function phoneForm(emoji: string): string {
  const bare = stripVariationSelectors(emoji);
  if ([...bare].length !== 1) return emoji;
  return /\p{Emoji_Presentation}/u.test(bare) ? bare : `${bare}\uFE0F`;
}

const same = (a: string, b: string) => stripVariationSelectors(a) === stripVariationSelectors(b);

/**
 * Executes the intents core decided for a single-slot channel (DESIGN §2.2 row Signal). A new
 * reaction replaces the bot's previous one on Signal's side; taking it back needs the emoji the
 * bot holds, which only the bot reaction record in `ctx.store` knows — also after a restart. Calls
 * on one message run one after another, so the record always names what the slot holds.
 */
export function createReactions(rpc: SignalRpc, record: BotReactionRecord): Pick<ChannelInstance, "react"> {
  return {
    async react(ref, intent) {
      const { author, timestamp } = addressOf(ref);
      const send = (emoji: string, remove: boolean) =>
        rpc.call<SignalSendResponse>(
          "sendReaction",
          {
            ...recipientParams(ref.conversationId),
            emoji,
            targetAuthor: author,
            targetTimestamp: timestamp,
            ...(remove && { remove: true }),
          },
          // Setting or taking back one slot twice leaves it the same: safe to repeat.
          { idempotent: true, operation: `${remove ? "remove" : "send"} a reaction on ${ref.messageId}` },
        );
      // Alone on the message (the record's `exclusive`): the slot's content depends on the order.
      const emoji = intent.op === "add" ? signalEmoji(intent) : undefined;
      return record.exclusive(ref, async (): Promise<ReactResult> => {
        const held = await record.held(ref);
        if (emoji !== undefined) {
          // Rule 10: the slot already holds it.
          if (held.length === 1 && same(held[0] as string, emoji))
            return { ok: true, action: "react", op: "add", emoji };
          // Recorded first, next to the old one: when the answer is lost either may be in the slot,
          // and a later removal names both; once Signal answered, the new one replaced the old.
          await record.hold(ref, [...held.filter((h) => !same(h, emoji)), emoji]);
          await send(emoji, false);
          await record.hold(ref, [emoji]);
          return { ok: true, action: "react", op: "add", emoji };
        }
        // remove and clear alike empty the one slot (rule 7), naming what it holds, whatever the call named.
        for (const one of held) await send(one, true);
        await record.hold(ref, []);
        return { ok: true, action: "react", op: intent.op, removed: held };
      });
    },
  };
}
