import { toChorusError } from "@chorus/core";
import { runTurn } from "../agent/index.js";
import type { ResolvedAgent } from "../config/index.js";
import type { SessionStore, TranscriptEntry, TranscriptStore } from "../sessions/index.js";

/** What `/compact` is asked to do with the transcript. */
const SUMMARY_PROMPT =
  "Summarise the conversation below for your own future reference: the people, facts, decisions and open questions. Plain text, at most 200 words.";

/** Asks the agent's model for a summary of a transcript (what `/compact` keeps). */
export async function summariseTranscript(
  agent: ResolvedAgent,
  entries: readonly TranscriptEntry[],
  signal?: AbortSignal,
): Promise<string> {
  const text = entries
    .filter((e) => e.role !== "tool")
    .map((e) => `${e.role === "assistant" ? agent.name : (e.name ?? e.role)}: ${e.content}`)
    .join("\n");
  const result = await runTurn({
    model: agent.model,
    system: SUMMARY_PROMPT,
    history: [],
    user: text,
    maxSteps: 1,
    ...(signal ? { signal } : {}),
  });
  return result.text.trim();
}

/** What `/compact` needs. */
export interface CompactContext {
  sessionKey: string;
  store: SessionStore;
  transcripts: TranscriptStore;
  /** Asks the model for a summary (`summariseTranscript` in the gateway). */
  summarise(entries: readonly TranscriptEntry[]): Promise<string>;
  now?: () => Date;
}

/**
 * `/compact`: the session's transcript is replaced by one system entry holding the model's
 * summary, which later turns get in their system prompt; on any failure the transcript stays.
 * Returns the answer for the chat.
 */
export async function compactSession(ctx: CompactContext): Promise<string> {
  const session = ctx.store.get(ctx.sessionKey);
  const entries = session === undefined ? [] : await ctx.transcripts.read(session.sessionId);
  if (session === undefined || entries.length === 0) return "Nothing to compact yet: this session is empty.";
  let summary: string;
  try {
    summary = (await ctx.summarise(entries)).trim();
  } catch (error) {
    return `Could not compact this session: ${toChorusError(error).message}. The transcript is unchanged.`;
  }
  if (summary === "")
    return "Could not compact this session: the summary came back empty. The transcript is unchanged.";
  const at = (ctx.now ?? (() => new Date()))().toISOString();
  await ctx.transcripts.rewrite(session.sessionId, [{ at, role: "system", content: summary }]);
  const count = entries.length === 1 ? "1 entry" : `${entries.length} entries`;
  return `Compacted this session: ${count} replaced by a summary of ${summary.length} characters.`;
}
