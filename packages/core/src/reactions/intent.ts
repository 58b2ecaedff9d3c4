import type { ResolvedEmoji } from "../emoji/resolve.js";

export type ReactionOp = "add" | "remove" | "clear";

/** The reaction part of a `message` tool call, before core applies the channel's rules. */
export interface ReactCall {
  emoji?: string | null;
  remove?: boolean;
  clearAll?: boolean;
}

/** The one thing a plugin must do for a `react` call, decided by core (DESIGN §2.2). */
export interface ReactionIntent {
  readonly op: ReactionOp;
  /** The emoji as the caller gave it, trimmed; kept for `clear` too (Signal clears by naming it). */
  readonly emoji?: string;
  /** The emoji found in the data set, when it is a standard emoji. */
  readonly resolved?: ResolvedEmoji;
  /** The vocabulary kind the emoji maps onto (tapback-only channels). */
  readonly kind?: string;
}
