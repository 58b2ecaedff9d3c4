import { type ReactionIntent, type ReactResult, stripVariationSelectors } from "@chorus/core";
import { whatsappEmoji } from "./emoji.js";

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

function sameEmoji(a: string, b: string): boolean {
  return stripVariationSelectors(a) === stripVariationSelectors(b);
}
