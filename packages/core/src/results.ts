import type { ErrorPayload } from "./errors.js";
import type { ReactionOp } from "./reactions/intent.js";

/** What a successful `react` returns (DESIGN §2.4). */
export interface ReactResult {
  ok: true;
  action: "react";
  op: ReactionOp;
  emoji?: string;
  /** Emoji (in the platform's form) that this call removed. */
  removed?: string[];
}

/** One emoji on a message, as `reactions` lists it. */
export interface ReactionSummary {
  emoji: string;
  count: number;
  /** The bot is among those who reacted with it. */
  me: boolean;
}

export interface ListReactionsResult {
  ok: true;
  action: "reactions";
  reactions: ReactionSummary[];
}

export interface SendResult {
  ok: true;
  action: "send";
  /** The first message sent. */
  messageId: string;
  /** Every message the call sent, in order, where it sent more than one. */
  messageIds?: string[];
  /** With media or a location: one entry per item, then the location — the kind it went out as, `"link"` or `"text"` (DESIGN §2.6 rule 5). */
  sentAs?: string[];
}

export type MessageToolSuccess = ReactResult | ListReactionsResult | SendResult;

export interface MessageToolFailure {
  ok: false;
  error: ErrorPayload;
}

/** What the `message` tool returns to its caller: a success or a typed error. */
export type MessageToolResult = MessageToolSuccess | MessageToolFailure;
