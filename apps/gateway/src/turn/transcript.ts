import type { ChatMessage, TurnResult } from "../agent/types.js";
import { INTRODUCED } from "../groups/intro.js";
import type { SessionEntry } from "../sessions/entry.js";
import type { SessionStore } from "../sessions/store.js";
import type { TranscriptStore } from "../sessions/transcript.js";
import type { TranscriptEntry } from "../sessions/transcript-entry.js";
import type { TurnTrigger } from "./run.js";

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
  return {
    history: earlier
      .filter((e) => e.role === "user" || e.role === "assistant")
      .map((e) => ({ role: e.role as "user" | "assistant", content: e.content })),
    summaries: earlier.filter((e) => e.role === "system").map((e) => e.content),
  };
}

/** One finished turn, as it is committed. */
export interface FinishedTurn {
  store: SessionStore;
  transcripts: TranscriptStore;
  session: SessionEntry;
  /** What the model got as the user message. */
  userText: string;
  trigger: TurnTrigger | undefined;
  result: TurnResult | undefined;
  /** The reply (or the failure notice, or the silent answer). */
  reply: string;
  /** The id of the reply message, when one was sent. */
  replyId: string | undefined;
  /** The turn carried the group introduction: the session has it from now on. */
  introduced: boolean;
}

/**
 * Commits a turn: its user message, tool calls and reply are appended to the transcript, the
 * session's turn count goes up, and the group intro state is recorded; then `sessions.json` is flushed.
 */
export async function commitTurn(turn: FinishedTurn): Promise<void> {
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
        input: call.input,
        output: call.output,
        turnId,
      }),
    ),
    { at, role: "assistant", content: turn.reply, turnId, ...(turn.replyId ? { messageId: turn.replyId } : {}) },
  ];
  await turn.transcripts.append(session.sessionId, entries);
  if (turn.introduced) store.changeSettings(session.key, INTRODUCED);
  store.update(session.key, (current) => ({ turns: current.turns + 1, updatedAt: at }));
  await store.flush();
}
