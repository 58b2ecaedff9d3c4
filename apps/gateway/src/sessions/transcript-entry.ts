import { ChorusError } from "@chorus/core";

/** One line of a session transcript. */
export interface TranscriptEntry {
  /** ISO timestamp. */
  at: string;
  role: "user" | "assistant" | "tool" | "system";
  content: string;
  /** Tool name, or the sender's name for `user`. */
  name?: string;
  toolCallId?: string;
  input?: unknown;
  output?: unknown;
  /** The platform message id this entry came from or produced. */
  messageId?: string;
  /** Groups the entries of one turn. */
  turnId?: string;
}

const ROLES: ReadonlySet<string> = new Set(["user", "assistant", "tool", "system"]);

/** Why `value` is not a transcript entry, or `undefined` when it is one. */
export function transcriptEntryProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "expected an object";
  const entry = value as Record<string, unknown>;
  if (typeof entry.at !== "string") return "at must be an ISO timestamp string";
  if (typeof entry.role !== "string" || !ROLES.has(entry.role)) return "role must be user, assistant, tool or system";
  if (typeof entry.content !== "string") return "content must be a string";
  for (const field of ["name", "toolCallId", "messageId", "turnId"] as const) {
    if (entry[field] !== undefined && typeof entry[field] !== "string") return `${field} must be a string`;
  }
  return undefined;
}

/** Parses one JSONL line; throws a plain `Error` saying what is wrong. */
export function parseTranscriptLine(line: string): TranscriptEntry {
  const value: unknown = JSON.parse(line);
  const problem = transcriptEntryProblem(value);
  if (problem !== undefined) throw new Error(`not a transcript entry: ${problem}`);
  return value as TranscriptEntry;
}

/** The JSONL bytes of `entries` (each line ends with a newline); invalid entries are `E_INVALID_INPUT`. */
export function serializeEntries(path: string, entries: readonly TranscriptEntry[]): Buffer {
  if (!Array.isArray(entries)) throw new ChorusError("E_INVALID_INPUT", `entries for ${path} must be an array`);
  let text = "";
  for (const [index, entry] of entries.entries()) {
    const problem = transcriptEntryProblem(entry);
    if (problem !== undefined) {
      throw new ChorusError("E_INVALID_INPUT", `transcript entry ${index} for ${path}: ${problem}`);
    }
    let line: string;
    try {
      line = JSON.stringify(entry);
    } catch (error) {
      throw new ChorusError(
        "E_INVALID_INPUT",
        `transcript entry ${index} for ${path} cannot be saved as JSON: ${(error as Error).message}`,
        { hint: "input and output must be plain JSON values (no cycles, no BigInt)", cause: error },
      );
    }
    text += `${line}\n`;
  }
  return Buffer.from(text, "utf8");
}
