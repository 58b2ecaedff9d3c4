/**
 * Crash safety of the session store and transcripts with a real process killed by SIGKILL.
 *
 * The child process runs the BUILT modules in `apps/gateway/dist` (plain Node cannot import the
 * TypeScript sources). In this repo `pnpm test` runs `turbo run build` before vitest; when running
 * this file alone, build first: `pnpm --filter @chorus/gateway build` (or `npx tsc -b` here).
 * The test refuses to run against a missing or stale build rather than testing old code.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { waitFor } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SessionsFile, sessionEntryProblem } from "./entry.js";
import { SessionStore } from "./store.js";
import { TranscriptStore } from "./transcript.js";

const here = dirname(fileURLToPath(import.meta.url));
const srcRoot = join(here, "..");
const distRoot = join(here, "..", "..", "dist");
const KEYS = 7;

const CHILD = (dist: string) => `
import { SessionStore } from ${JSON.stringify(pathToFileURL(join(dist, "sessions", "store.js")).href)};
import { TranscriptStore } from ${JSON.stringify(pathToFileURL(join(dist, "sessions", "transcript.js")).href)};

const [dir, first] = process.argv.slice(2);
const store = await SessionStore.open(dir, { onWarning: (message) => process.stdout.write("warning " + message + "\\n") });
const transcripts = new TranscriptStore(dir);
for (let turn = Number(first); ; turn++) {
  const conversationId = "g" + (turn % ${KEYS});
  const key = "agent:main:fake:group:" + conversationId;
  const session = store.ensure(key, { agentId: "main", channel: "fake", accountId: "default", conversationId, chatType: "group" });
  store.update(key, (entry) => ({ turns: entry.turns + 1, title: String(turn) }));
  const at = new Date().toISOString();
  const padding = "x".repeat(turn % 5 === 0 ? 50000 : 40);
  await transcripts.append(session.sessionId, [
    { at, role: "user", content: "question " + turn, turnId: String(turn) },
    { at, role: "assistant", content: "answer " + turn + " " + padding, turnId: String(turn) },
  ]);
  process.stdout.write("turn " + key + " " + session.sessionId + " " + turn + "\\n");
  if (turn % 4 === 0) {
    await store.flush();
    process.stdout.write("flushed " + turn + "\\n");
  }
}
`;

interface Progress {
  /** Turns whose append resolved, by session id. */
  turnsBySession: Map<string, number[]>;
  /** Every reported turn, in order, with the run (round) that made it. */
  reported: { round: number; key: string; turn: number }[];
  /** Per round, the highest turn after which `flush()` resolved. */
  flushedUpTo: number[];
  warnings: string[];
}

/** Every built module must be at least as new as its source, or the child would test old code. */
async function assertFreshBuild(): Promise<void> {
  for (const folder of ["sessions", "state"]) {
    for (const name of await readdir(join(srcRoot, folder))) {
      if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
      const source = join(srcRoot, folder, name);
      const built = join(distRoot, folder, name.replace(/\.ts$/, ".js"));
      const builtStat = await stat(built).catch(() => undefined);
      if (!builtStat || builtStat.mtimeMs < (await stat(source)).mtimeMs) {
        throw new Error(
          `${relative(process.cwd(), built)} is ${builtStat ? "older than its source" : "missing"}: ` +
            "build the gateway first (pnpm --filter @chorus/gateway build); the repo's `pnpm test` does this",
        );
      }
    }
  }
}

/** Starts the child and resolves with it killed by SIGKILL after `killAfter` reported turns. */
async function runAndKill(script: string, dir: string, round: number, killAfter: number, progress: Progress) {
  // Each round numbers its turns apart: the turn in flight at the kill may be on disk unreported.
  const first = round * 1_000_000;
  const child: ChildProcess = spawn(process.execPath, [script, dir, String(first)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  let seen = 0;
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  lines.on("line", (line) => {
    const [kind, ...rest] = line.split(" ");
    if (kind === "turn") {
      const [key, sessionId, turnText] = rest as [string, string, string];
      const turn = Number(turnText);
      progress.reported.push({ round, key, turn });
      const list = progress.turnsBySession.get(sessionId) ?? [];
      list.push(turn);
      progress.turnsBySession.set(sessionId, list);
      seen++;
    } else if (kind === "flushed") {
      progress.flushedUpTo[round] = Number(rest[0]);
    } else if (kind === "warning") {
      progress.warnings.push(rest.join(" "));
    }
  });
  let exitedEarly = false;
  void closed.then(() => {
    exitedEarly = true;
  });
  await waitFor(() => seen >= killAfter || exitedEarly, { timeoutMs: 20_000, message: `${killAfter} turns` });
  if (exitedEarly) throw new Error(`the child exited before it was killed:\n${stderr}`);
  child.kill("SIGKILL");
  await closed; // every line it wrote has been read
  expect(child.signalCode).toBe("SIGKILL");
}

/** Checks what a crash must never break: parseable, complete sessions; every finished turn in its transcript. */
async function verify(dir: string, progress: Progress): Promise<void> {
  const file = JSON.parse(await readFile(join(dir, "sessions.json"), "utf8")) as SessionsFile;
  expect(file.version).toBe(1);
  for (const [key, entry] of Object.entries(file.sessions)) {
    expect(sessionEntryProblem(entry), key).toBeUndefined();
    expect(entry.key).toBe(key);
  }
  // Every update a completed flush() covered is on disk (the title holds the last turn, which only grows: later rounds count higher).
  const flushedLastTurn = new Map<string, number>();
  for (const { round, key, turn } of progress.reported) {
    if (turn <= (progress.flushedUpTo[round] ?? -1)) {
      flushedLastTurn.set(key, Math.max(flushedLastTurn.get(key) ?? -1, turn));
    }
  }
  for (const [key, turn] of flushedLastTurn) {
    expect(Number(file.sessions[key]?.title), key).toBeGreaterThanOrEqual(turn);
  }
  const reopened = await SessionStore.open(dir, { onWarning: () => undefined });
  expect(reopened.warnings).toEqual([]);

  const transcripts = new TranscriptStore(dir);
  for (const [sessionId, turns] of progress.turnsBySession) {
    const entries = await transcripts.read(sessionId);
    const byTurn = new Map<string, string[]>();
    for (const entry of entries)
      byTurn.set(entry.turnId ?? "", [...(byTurn.get(entry.turnId ?? "") ?? []), entry.role]);
    for (const turn of turns) {
      expect(byTurn.get(String(turn)), `turn ${turn} of ${sessionId}`).toEqual(["user", "assistant"]);
    }
  }
}

describe("crash safety (SIGKILL at random moments)", () => {
  let dir: string;
  let script: string;

  beforeAll(async () => {
    await assertFreshBuild();
    dir = await mkdtemp(join(tmpdir(), "chorus-crash-"));
    script = join(dir, "child.mjs");
    await writeFile(script, CHILD(distRoot));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("keeps sessions.json parseable and complete, and every finished turn in its transcript", async () => {
    const data = join(dir, "data");
    const progress: Progress = { turnsBySession: new Map(), reported: [], flushedUpTo: [], warnings: [] };
    for (let round = 0; round < 6; round++) {
      const killAfter = 1 + Math.floor(Math.random() * 150);
      await runAndKill(script, data, round, killAfter, progress);
      await verify(data, progress);
    }
    expect(progress.warnings).toEqual([]);
    expect(progress.reported.length).toBeGreaterThanOrEqual(6);
  }, 120_000);
});
