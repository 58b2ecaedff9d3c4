import type { InboundMessageEvent } from "@chorus/core";
import { INVISIBLE_CHARS, oneLine } from "../support/index.js";

/** A group message that did not trigger a run, kept as context for the next one. */
export interface PendingMessage {
  /** The sender's display name (or id when the platform gives no name). */
  sender: string;
  e164?: string;
  text: string;
  messageId: string;
  /** Epoch milliseconds. */
  at: number;
}

/** `historyLimit` when neither the channel (or account) nor `messages.groupChat` sets one. */
export const DEFAULT_HISTORY_LIMIT = 50;
/** Pending texts longer than this are cut (marked `…[truncated]`) so a turn's context stays bounded. */
export const DEFAULT_MAX_PENDING_CHARS = 4000;

/** A group message as context: who wrote it, what (cut at `maxTextChars`, default 4000), when. */
export function pendingOf(event: InboundMessageEvent, maxTextChars = DEFAULT_MAX_PENDING_CHARS): PendingMessage {
  const text = event.text.length > maxTextChars ? `${event.text.slice(0, maxTextChars)} …[truncated]` : event.text;
  return {
    sender: event.sender.name ?? event.sender.id,
    ...(event.sender.e164 ? { e164: event.sender.e164 } : {}),
    text,
    messageId: event.ref.messageId,
    at: event.timestamp,
  };
}

/**
 * `historyLimit` of a channel account's settings (where an account inherits the channel's, see
 * `channelAccounts`), else `messages.groupChat.historyLimit`, else 50; 0 disables.
 */
export function resolveHistoryLimit(
  settings: { historyLimit?: number | undefined },
  shared: number | undefined,
): number {
  return settings.historyLimit ?? shared ?? DEFAULT_HISTORY_LIMIT;
}

export const CONTEXT_MARKER = "[Chat messages since your last reply - for context]";
export const CURRENT_MARKER = "[Current message - respond to this]";

const I = INVISIBLE_CHARS;
/** Letters of `word` with invisible characters allowed between them; spaces as any run of spaces. */
const loose = (words: string): string =>
  words
    .split(" ")
    .map((word) => word.split("").join(`[${I}]*`))
    .join(`[\\s${I}]+`);
const FORGED = new RegExp(
  `[\\[\\uFF3B](?=[\\s${I}]*(?:${loose("from")}[\\s${I}]*:|${loose("chat messages since")}|${loose("current message")}))`,
  "gi",
);

/**
 * User text with anything that reads as a batch marker (`[from:`, `[Chat messages since …`,
 * `[Current message …`, in any case, spacing or with invisible characters) defused: its `[` becomes `(`.
 */
export function neutraliseMarkers(text: string): string {
  return text.replace(FORGED, "(");
}

/** A sender name fit for one line (see `oneLine`); `Unknown sender` when nothing is left. */
export function cleanName(name: string): string {
  return oneLine(name) || "Unknown sender";
}

/** The last line of a group batch, `[from: Name (+E164)]`: who the agent should address (DESIGN §4). */
export function fromLine(sender: { name: string; e164?: string | undefined }): string {
  const digits = sender.e164?.replace(/\D/g, "") ?? "";
  return `[from: ${cleanName(sender.name)}${digits === "" ? "" : ` (+${digits})`}]`;
}

/**
 * What starts each further line of one message's text: a speaker's line or a marker always starts
 * at the line's beginning, so a message's own newlines can never begin one (DESIGN §4).
 */
export const CONTINUATION = "  | ";

/** Every kind of line break a message may carry (`\r\n`, `\r`, U+2028, …), for `entryLines`. */
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/u;

/** One context entry: `Name: first line`, each further line of its text framed by `CONTINUATION`. */
export function entryLines(sender: string, text: string): string {
  const [first = "", ...rest] = neutraliseMarkers(text).split(LINE_BREAK);
  return [`${cleanName(sender)}: ${first}`, ...rest.map((more) => `${CONTINUATION}${more}`)].join("\n");
}

function line(message: PendingMessage): string {
  return entryLines(message.sender, message.text);
}

/**
 * The text the model gets for a triggered group turn: pending context under
 * `[Chat messages since your last reply - for context]`, the trigger under
 * `[Current message - respond to this]` (markers only when there is context), then
 * `[from: Name (+E164)]` as the last line.
 */
export function formatBatch(pending: readonly PendingMessage[], current: PendingMessage): string {
  const from = fromLine({ name: current.sender, e164: current.e164 });
  if (pending.length === 0) return `${line(current)}\n${from}`;
  return [CONTEXT_MARKER, ...pending.map(line), "", CURRENT_MARKER, line(current), from].join("\n");
}
