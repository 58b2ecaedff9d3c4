import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  readSessionsFile,
  type SessionEntry,
  type TranscriptEntry,
  transcriptEntryProblem,
} from "../../src/sessions/index.js";
import { readTranscriptFromState } from "./state-db.js";

/** `<home>/agents/<agentId>/sessions`. */
export const sessionsDirOf = (home: string, agentId = "main") => join(home, "agents", agentId, "sessions");

/** sessions.json as it is on disk, by key; throws when it does not parse or has invalid entries. */
export async function readSessionsOnDisk(home: string, agentId = "main"): Promise<Record<string, SessionEntry>> {
  const file = join(sessionsDirOf(home, agentId), "sessions.json");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  const read = readSessionsFile(file, JSON.parse(text));
  if (read.fatal !== undefined || read.problems.length > 0) {
    throw new Error(`${file} is not valid: ${read.fatal ?? read.problems.join("; ")}`);
  }
  return Object.fromEntries(read.entries.map((entry) => [entry.key, entry]));
}

/** The sum of `turns` over every session. */
export function committedTurns(sessions: Record<string, SessionEntry>): number {
  return Object.values(sessions).reduce((sum, entry) => sum + entry.turns, 0);
}

/** One turn of a transcript: the user's message and the assistant's answer, linked by `turnId`. */
export interface TranscriptTurn {
  turnId: string;
  user: TranscriptEntry;
  assistant: TranscriptEntry;
}

/**
 * A transcript as the state database holds it: every entry must be valid; returns the complete
 * turns (a turn is committed whole, in one transaction, so there is never half of one).
 */
export async function readTranscriptOnDisk(
  home: string,
  sessionId: string,
): Promise<{ turns: TranscriptTurn[]; tornTail: boolean }> {
  const entries = readTranscriptFromState(home, sessionId) as unknown as TranscriptEntry[];
  for (const [index, entry] of entries.entries()) {
    const problem = transcriptEntryProblem(entry);
    if (problem !== undefined) throw new Error(`transcript ${sessionId} entry ${index + 1}: ${problem}`);
  }
  const turns: TranscriptTurn[] = [];
  for (const user of entries.filter((e) => e.role === "user")) {
    const assistant = entries.find((e) => e.role === "assistant" && e.turnId === user.turnId);
    if (assistant && user.turnId !== undefined) turns.push({ turnId: user.turnId, user, assistant });
  }
  return { turns, tornTail: false };
}
