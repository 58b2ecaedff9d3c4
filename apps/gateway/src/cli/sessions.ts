import { ChorusError } from "@chorus/core";
import type { Command } from "commander";
import { type SessionEntry, sessionEntryProblem } from "../sessions/index.js";
import { cliContext, openCliState } from "./context.js";

/** Where the sessions commands read their environment and write their output (tests swap them). */
export interface SessionsCommandIo {
  env?: NodeJS.ProcessEnv;
  out?: (text: string) => void;
}

/** `chorus sessions` and `chorus sessions show <key>`: the sessions in the state database (SQLite or PostgreSQL). */
export function registerSessionsCommands(program: Command, io: SessionsCommandIo = {}): void {
  const out = io.out ?? ((text: string) => process.stdout.write(text));
  const withState = async <T>(
    options: { config?: string },
    use: (state: Awaited<ReturnType<typeof openCliState>>) => Promise<T>,
  ) => {
    const state = await openCliState(await cliContext(options, io.env));
    try {
      return await use(state);
    } finally {
      await state.close();
    }
  };
  const sessions = program
    .command("sessions")
    .description("list the agent's sessions (from the state database: <home>/chorus.db, or state.url)")
    .option("--config <path>", "config file (default: $CHORUS_CONFIG or <home>/chorus.json)")
    .option("--json", "machine-readable output")
    .option("--agent <id>", "only this agent's sessions")
    .action(async (options: { config?: string; json?: boolean; agent?: string }) => {
      await withState(options, async (state) => {
        const entries = (await state.sessions.all())
          .filter((e) => sessionEntryProblem(e) === undefined)
          .map((e) => e as unknown as SessionEntry)
          .filter((e) => options.agent === undefined || e.agentId === options.agent);
        if (options.json) return out(`${JSON.stringify(entries, null, 2)}\n`);
        out(formatSessionList(entries, state.where));
      });
    });
  sessions
    .command("show <key>")
    .description("one session: its entry and the end of its transcript")
    .option("--config <path>", "config file (default: $CHORUS_CONFIG or <home>/chorus.json)")
    .option("--limit <n>", "transcript entries to show (default 20)", (v) => Number.parseInt(v, 10))
    .option("--json", "machine-readable output")
    .action(async (key: string, options: { config?: string; limit?: number; json?: boolean }) => {
      await withState(options, async (state) => {
        const entry = (await state.sessions.get(key)) as SessionEntry | undefined;
        if (!entry) {
          throw new ChorusError("E_INVALID_INPUT", `no session "${key}"`, { hint: "`chorus sessions` lists them" });
        }
        const transcript = await state.transcripts.read(entry.sessionId, options.limit ?? 20);
        if (options.json) return out(`${JSON.stringify({ session: entry, transcript }, null, 2)}\n`);
        const lines = [
          `${entry.key}  (${entry.chatType}${entry.title ? ` "${entry.title}"` : ""}, ${entry.turns} turns, updated ${entry.updatedAt})`,
          `  session id ${entry.sessionId}; settings ${JSON.stringify(entry.settings)}`,
          "",
          ...transcript.map(
            (e) => `  ${String(e.at)}  ${String(e.role).padEnd(9)} ${oneLine(String(e.content ?? ""))}`,
          ),
          "",
        ];
        out(lines.join("\n"));
      });
    });
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}

/** The human listing of `chorus sessions`. */
export function formatSessionList(entries: readonly SessionEntry[], where: string): string {
  if (entries.length === 0) return `No sessions yet (${where}).\n`;
  const sorted = [...entries].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const width = Math.max(...sorted.map((e) => e.key.length));
  return `${sorted.map((e) => `${e.key.padEnd(width)}  ${String(e.turns).padStart(5)} turns  ${e.updatedAt}`).join("\n")}\n\n${entries.length} sessions (${where})\n`;
}
