import { ChorusError, z } from "@chorus/core";
import { type SessionSettings, sessionSettingsSchema } from "./settings.js";

/** The `version` this gateway writes to `sessions.json`. */
export const SESSIONS_FILE_VERSION = 1;

/** One conversation's session with one agent, as kept in `sessions.json`. */
export interface SessionEntry {
  key: string;
  /** Random UUID; names the transcript file. A reset gives a new one. */
  sessionId: string;
  agentId: string;
  channel: string;
  accountId: string;
  conversationId: string;
  chatType: "direct" | "group";
  title?: string;
  threadId?: string;
  /** ISO timestamps. */
  createdAt: string;
  updatedAt: string;
  turns: number;
  /** Per-session switches (activation, group intro state, verbose, think); changed with `SessionStore.changeSettings`. */
  settings: SessionSettings;
}

/** The JSON of `sessions.json`. */
export interface SessionsFile {
  version: typeof SESSIONS_FILE_VERSION;
  sessions: Record<string, SessionEntry>;
}

const isoTimestamp = z.string().refine((text) => !Number.isNaN(Date.parse(text)), "expected an ISO timestamp");

/** Unknown fields are kept, so a file written by a newer gateway loses nothing when rewritten. */
const sessionEntrySchema = z.looseObject({
  key: z.string().min(1),
  sessionId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, "expected letters, digits, - and _ (a UUID)"),
  agentId: z.string().min(1),
  channel: z.string().min(1),
  accountId: z.string().min(1),
  conversationId: z.string().min(1),
  chatType: z.enum(["direct", "group"]),
  title: z.string().optional(),
  threadId: z.string().optional(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  turns: z.number().int().min(0),
  settings: sessionSettingsSchema,
});

/** What is wrong with a session entry (`field: problem; …`), or `undefined` when it is complete. */
export function sessionEntryProblem(value: unknown): string | undefined {
  const result = checkEntry(value);
  return "problem" in result ? result.problem : undefined;
}

/** The entry as this gateway reads it (settings of the wrong kind dropped), or what is wrong with it. */
export function checkEntry(value: unknown): { entry: SessionEntry } | { problem: string } {
  const result = sessionEntrySchema.safeParse(value);
  if (result.success) return { entry: result.data as SessionEntry };
  return {
    problem: result.error.issues.map((issue) => `${issue.path.join(".") || "entry"}: ${issue.message}`).join("; "),
  };
}

/** Throws `E_INVALID_INPUT` naming the field when `entry` is not a complete session entry. */
export function assertSessionEntry(entry: SessionEntry): void {
  const problem = sessionEntryProblem(entry);
  if (problem !== undefined) {
    throw new ChorusError("E_INVALID_INPUT", `invalid session "${entry.key}": ${problem}`);
  }
}

/** The outcome of reading a parsed `sessions.json`. */
export interface ReadSessions {
  entries: SessionEntry[];
  /** Entries that were dropped, and why. */
  problems: string[];
  /** Set when the file as a whole is unusable. */
  fatal?: string;
}

/** Validates a parsed `sessions.json`; a file from a newer gateway is an error, not corruption. */
export function readSessionsFile(file: string, raw: unknown): ReadSessions {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { entries: [], problems: [], fatal: `${file} is corrupt: expected { "version": 1, "sessions": { … } }` };
  }
  const { version, sessions } = raw as { version?: unknown; sessions?: unknown };
  if (typeof version === "number" && version > SESSIONS_FILE_VERSION) {
    throw new ChorusError("E_INVALID_INPUT", `${file} has version ${version}, this gateway reads version 1`, {
      hint: "it was written by a newer Chorus; upgrade the gateway",
      retryable: false,
    });
  }
  if (
    version !== SESSIONS_FILE_VERSION ||
    typeof sessions !== "object" ||
    sessions === null ||
    Array.isArray(sessions)
  ) {
    return { entries: [], problems: [], fatal: `${file} is corrupt: expected { "version": 1, "sessions": { … } }` };
  }
  const entries: SessionEntry[] = [];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(sessions)) {
    const checked = checkEntry(value);
    const problem =
      "problem" in checked ? checked.problem : checked.entry.key === key ? undefined : "key: does not match";
    if (problem === undefined && "entry" in checked) entries.push(checked.entry);
    else problems.push(`${key}: ${problem}`);
  }
  return { entries, problems };
}
