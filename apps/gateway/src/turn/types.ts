import type { Conversation, MessageRef } from "@chorus/core";
import type { ChannelEntry, TurnScope } from "../channels/index.js";
import type { ResolvedAgent } from "../config/index.js";
import type { SessionInit, TranscriptEntry } from "../sessions/index.js";
import type { SessionRow, Sql } from "../state/index.js";
import type { MessageImage } from "../understand/index.js";

/** The message that triggered a turn (absent for heartbeats). */
export interface TurnTrigger {
  ref: MessageRef;
  senderName: string;
  text: string;
}

export interface TurnRequest {
  entry: ChannelEntry;
  agent: ResolvedAgent;
  sessionKey: string;
  init: SessionInit;
  conversation: Conversation;
  trigger?: TurnTrigger;
  /** What the model receives as the user message (the group batch, or the DM text), a line per attachment in it. */
  userText: string;
  /** The current message's photos as image input (a model that takes images); the transcript keeps their lines. */
  images?: readonly MessageImage[] | undefined;
  /** The bot was mentioned (or it is a DM): typing and ack scope depend on it. */
  mentioned: boolean;
  /** The group introduction for the system prompt (first turn, after /activation). */
  intro?: string;
  signal: AbortSignal;
  /** When the message it answers was received (an outside agent's answer can come before the turn waits for it). */
  receivedAt?: number;
}

/** A reply to record in the outbox, then send. */
export interface ReplyDraft {
  text: string;
  scope: TurnScope;
  /** The platform message id to reply to (groups). */
  replyTo?: string;
  /** Which of the committed transcript entries records this reply (its messageId is set once sent). */
  entryIndex?: number;
}

/** What a turn leaves for its commit, and what it still does around the reply's delivery. */
export interface TurnAnswer {
  /** The agent answered, stayed silent (or an outside agent answered itself), or its model failed (the notice is the reply). */
  outcome: "replied" | "no-reply" | "error";
  /** The model's part: its provider, its time (ms; an outside agent's wait), and its error when it failed. */
  model: { provider: string; ms: number; error?: { code: string; message: string } };
  transcript: { sessionId: string; entries: readonly TranscriptEntry[] };
  /** The session's entry after the turn. */
  session: SessionRow;
  /** The reply; none when the agent stayed silent (`NO_REPLY`) or an outside agent already answered. */
  reply?: ReplyDraft;
  /** More of the turn's commit (the system events it showed the model are consumed). */
  also(sql: Sql): Promise<void>;
  /** After the commit: the session store now holds the committed entry. */
  committed(): void;
  /** Right before the reply is sent. */
  beforeReply(): Promise<void>;
  /** After the reply: typing off, the turn's reactions end (done, no reply, or error). */
  end(): Promise<void>;
}
