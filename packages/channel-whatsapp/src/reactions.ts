import {
  defineVocabulary,
  type MessageRef,
  type ReactionIntent,
  type ReactResult,
  stripVariationSelectors,
  unsupportedEmoji,
} from "@chorus/core";
import { generateMessageIDV2 } from "@whiskeysockets/baileys";
import type { MessageAcks } from "./acks.js";
import type { BotIdentity } from "./jids.js";
import type { BotReactionStore } from "./reaction-store.js";
import { messageKeyOf } from "./ref.js";
import { withRetries } from "./retry.js";
import type { WASocket } from "./socket.js";

const LABEL = "WhatsApp";

/**
 * WhatsApp's quick-reaction bar. Any emoji is allowed; these are only the suggestions named when
 * something that is not an emoji is refused.
 */
export const QUICK_REACTIONS = defineVocabulary(["👍", "❤️", "😂", "😮", "😢", "🙏"]);

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** What makes a grapheme an emoji: a pictograph, a flag's regional indicators, or a keycap. */
const EMOJI_PART = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

/** Whether `text` is exactly one emoji (with its skin tone, ZWJ parts or variation selector). */
function isSingleEmoji(text: string): boolean {
  return [...graphemes.segment(text)].length === 1 && EMOJI_PART.test(text);
}

/**
 * The emoji as WhatsApp gets it: any single emoji (also given as a shortcode) in its fully
 * qualified form, the one phones send (`❤️` with U+FE0F, `👍` without), so the bot's reaction
 * groups with everyone else's. Anything else is `E_UNSUPPORTED_EMOJI` naming the quick reactions.
 */
export function whatsappEmoji(intent: ReactionIntent): string {
  const given = intent.emoji ?? "";
  const emoji = intent.resolved?.bare ?? given;
  if (isSingleEmoji(emoji)) return fullyQualified(emoji);
  throw unsupportedEmoji(given, QUICK_REACTIONS, LABEL);
}

const TEXT_DEFAULT = /^(?:\p{Extended_Pictographic}|[#*0-9])$/u;
const EMOJI_DEFAULT = /^\p{Emoji_Presentation}$/u;
const SKIN_TONE = /^[\u{1F3FB}-\u{1F3FF}]$/u;

/**
 * Unicode's fully qualified spelling: U+FE0F after every part that is text by default (`❤`,
 * `☺`, a keycap's digit), unless a skin tone follows it.
 */
export function fullyQualified(emoji: string): string {
  const parts = [...stripVariationSelectors(emoji)];
  let out = "";
  for (const [index, part] of parts.entries()) {
    out += part;
    const next = parts[index + 1] ?? "";
    const textDefault = TEXT_DEFAULT.test(part) && !EMOJI_DEFAULT.test(part);
    const keycapBase = /^[#*0-9]$/.test(part);
    if (textDefault && !SKIN_TONE.test(next) && (!keycapBase || next === "\u20E3")) out += "\uFE0F";
  }
  return out;
}

/** What a reaction intent does to the one slot the bot has on a message. */
export interface ReactionPlan {
  /** The reaction text to send (`""` empties the slot); undefined when nothing must change. */
  readonly send?: string;
  /** What the bot holds afterwards. */
  readonly hold: string | undefined;
  readonly result: ReactResult;
}

/**
 * DESIGN §2.2 row WhatsApp, with what the bot `held` on the message: one slot, a new emoji
 * replaces the old one, `clear` empties it. Adding what is held, or clearing an empty slot,
 * needs no request. Emoji compare without variation selectors.
 */
export function planReaction(held: string | undefined, intent: ReactionIntent): ReactionPlan {
  if (intent.op === "clear") {
    if (held === undefined) return { hold: undefined, result: { ok: true, action: "react", op: "clear", removed: [] } };
    return { send: "", hold: undefined, result: { ok: true, action: "react", op: "clear", removed: [held] } };
  }
  const emoji = whatsappEmoji(intent);
  const holds = held !== undefined && sameEmoji(held, emoji);
  if (intent.op === "remove") {
    // Core never asks a single-slot channel to remove one emoji; if asked, only that emoji goes.
    const result: ReactResult = { ok: true, action: "react", op: "remove", emoji, removed: holds ? [held] : [] };
    return holds ? { send: "", hold: undefined, result } : { hold: held, result };
  }
  if (holds) return { hold: held, result: { ok: true, action: "react", op: "add", emoji: held } };
  return {
    send: emoji,
    hold: emoji,
    result: { ok: true, action: "react", op: "add", emoji, ...(held !== undefined ? { removed: [held] } : {}) },
  };
}

export interface ReactionDeps {
  readonly ready: () => Promise<WASocket>;
  /** The linked account; throws when there is none. */
  readonly who: () => BotIdentity;
  readonly store: BotReactionStore;
  /** WhatsApp's acks: the slot counts as changed once acknowledged. */
  readonly acks: MessageAcks;
  readonly retries: number;
  readonly signal: AbortSignal;
}

/**
 * Executes core's reaction intents: `sendMessage(chat, { react: { text, key } })` with the
 * message's full key (a group message's author as `participant`), remembering what the bot holds
 * once WhatsApp acknowledged it.
 */
export class WhatsAppReactions {
  /** The last queued call per message: with one slot, the order calls reach WhatsApp decides what stays. */
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: ReactionDeps) {}

  async react(ref: MessageRef, intent: ReactionIntent): Promise<ReactResult> {
    // Both refusals come before any request: a group message without its author (WhatsApp
    // would accept the reaction and show nothing), and something that is not an emoji.
    const key = messageKeyOf(ref, this.deps.who());
    if (intent.op !== "clear") whatsappEmoji(intent);
    const chat = key.remoteJid as string;
    const id = key.id as string;
    const slot = `${chat}\n${id}`;
    const previous = this.#queues.get(slot) ?? Promise.resolve();
    const run = previous
      .catch(() => undefined)
      .then(async () => {
        const plan = planReaction(await this.deps.store.get(chat, id), intent);
        if (plan.send === undefined) return plan.result;
        const text = plan.send;
        const messageId = generateMessageIDV2();
        const ack = this.deps.acks.expect(messageId, "reaction");
        try {
          // A failure before the stanza left may be retried; one without an ack is not repeated.
          const react = async () => {
            const socket = await this.deps.ready();
            await socket.sendMessage(chat, { react: { text, key } }, { messageId, useCachedGroupMetadata: true });
            return socket;
          };
          const socket = await withRetries(react, {
            retries: this.deps.retries,
            what: "react",
            signal: this.deps.signal,
          });
          await ack.confirmed(socket);
        } finally {
          ack.cancel();
        }
        await this.deps.store.set(chat, id, plan.hold);
        return plan.result;
      });
    this.#queues.set(slot, run);
    try {
      return await run;
    } finally {
      if (this.#queues.get(slot) === run) this.#queues.delete(slot);
    }
  }
}

function sameEmoji(a: string, b: string): boolean {
  return stripVariationSelectors(a) === stripVariationSelectors(b);
}
