import type { ChatMessage, TurnResult } from "../agent/index.js";
import { INTRODUCED } from "../groups/index.js";
import {
  type SessionEntry,
  type SessionStore,
  type TranscriptEntry,
  type TranscriptStore,
  withSettings,
} from "../sessions/index.js";
import { copyWith } from "../support/index.js";
import type { TurnTrigger } from "./types.js";

/** What a turn starts from: the conversation so far, and the summaries `/compact` left. */
export interface SessionHistory {
  history: ChatMessage[];
  summaries: string[];
}

/** The last `limit` transcript entries of a session as the model gets them: chat history, and summaries. */
export async function readHistory(
  transcripts: TranscriptStore,
  sessionId: string,
  limit: number,
): Promise<SessionHistory> {
  const earlier = await transcripts.read(sessionId, { limit });
  const history: ChatMessage[] = [];
  const summaries: string[] = [];
  for (const entry of earlier) {
    if (entry.role === "user" || entry.role === "assistant") history.push({ role: entry.role, content: entry.content });
    else if (entry.role === "system") summaries.push(entry.content);
  }
  return { history, summaries };
}

/** One finished turn, as it is committed. */
export interface FinishedTurn {
  store: SessionStore;
  session: SessionEntry;
  /** What the model got as the user message. */
  userText: string;
  trigger: TurnTrigger | undefined;
  result: TurnResult | undefined;
  /** The reply (or the failure notice, or the silent answer). */
  reply: string;
  /** The turn carried the group introduction: the session has it from now on. */
  introduced: boolean;
}

/** What a turn commits: its transcript entries (the reply last) and the session as it is after it. */
export interface TurnRecord {
  entries: TranscriptEntry[];
  session: SessionEntry;
}

/**
 * A finished turn as it is committed: its user message, tool calls and reply as transcript
 * entries (the reply's `messageId` is filled in once it was sent), the session's turn count one
 * up, and the group intro state recorded.
 */
export function recordTurn(turn: FinishedTurn): TurnRecord {
  const { store, session, trigger } = turn;
  const at = new Date().toISOString();
  const turnId = `${Date.now().toString(36)}-${trigger?.ref.messageId ?? "heartbeat"}`;
  const entries: TranscriptEntry[] = [
    {
      at,
      role: "user",
      content: turn.userText,
      turnId,
      ...(trigger ? { messageId: trigger.ref.messageId, name: trigger.senderName } : { name: "heartbeat" }),
    },
    ...(turn.result?.toolCalls ?? []).map(
      (call): TranscriptEntry => ({
        at,
        role: "tool",
        content: "",
        name: "message",
        toolCallId: call.id,
        input: withoutInlineData(call.input),
        output: call.output,
        turnId,
      }),
    ),
    { at, role: "assistant", content: turn.reply, turnId },
  ];
  const current = store.get(session.key);
  // A session gone meanwhile (deleted) makes `preview` throw, naming it.
  if (!current) return { entries, session: store.preview(session.key, { updatedAt: at }) };
  const settings = turn.introduced ? withSettings(current.settings, INTRODUCED) : current.settings;
  // An entry of the store is a checked one; one turn more and a new time keep it so (no second check per turn).
  return { entries, session: copyWith(current, { turns: current.turns + 1, updatedAt: at, settings }) };
}

/**
 * A `message` call as the transcript keeps it: a medium given inline (`data`, up to 512 KiB of
 * base64) is replaced by its size, so history never sends those bytes to the model again.
 */
function withoutInlineData(input: unknown): unknown {
  const media = (input as { media?: unknown } | null)?.media;
  if (!Array.isArray(media)) return input;
  return {
    ...(input as Record<string, unknown>),
    media: media.map((item: unknown) => {
      const data = (item as { data?: unknown } | null)?.data;
      if (typeof data !== "string") return item;
      return {
        ...(item as Record<string, unknown>),
        data: `[inline data, ${Math.floor((data.length * 3) / 4)} bytes, not kept]`,
      };
    }),
  };
}
