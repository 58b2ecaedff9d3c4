import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { ChorusError } from "@chorus/core";

export interface NpmOptions {
  /** Receives every line npm prints, stdout and stderr. */
  onProgress?: (line: string) => void;
  /** The npm executable; `npm` on the PATH by default. */
  npm?: string;
  env?: NodeJS.ProcessEnv;
}

/** How many of npm's last lines a failure quotes. */
const TAIL_LINES = 15;

/**
 * Runs `npm <args>` in `cwd` without a shell, streaming its output; throws `E_PLATFORM` when it
 * fails. Resolves with what it printed on stdout.
 */
export async function runNpm(args: readonly string[], cwd: string, options: NpmOptions = {}): Promise<string> {
  const npm = options.npm ?? "npm";
  const command = `${npm} ${args.join(" ")}`;
  const tail: string[] = [];
  const stdout: string[] = [];
  const child = spawn(npm, args, { cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  const onLine = (line: string) => {
    tail.push(line);
    if (tail.length > TAIL_LINES) tail.shift();
    options.onProgress?.(line);
  };
  const streams = [
    pipeLines(child.stdout, (line) => {
      stdout.push(line);
      onLine(line);
    }),
    pipeLines(child.stderr, onLine),
  ];
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal }));
  }).catch((error: NodeJS.ErrnoException) => {
    const why = error.code === "ENOENT" ? `${npm} was not found on the PATH` : error.message;
    throw new ChorusError("E_PLATFORM", `Could not run ${command} in ${cwd}: ${why}.`, {
      retryable: false,
      hint: "Install Node.js with npm (https://nodejs.org), or make npm reachable on the PATH.",
      cause: error,
    });
  });
  await Promise.all(streams);
  if (exit.code === 0) return stdout.join("\n");
  const status = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const output = tail.filter((line) => line.trim() !== "").join("\n");
  throw new ChorusError("E_PLATFORM", `${command} ${status} (in ${cwd}).${output ? `\n${output}` : ""}`, {
    retryable: false,
    details: { command, cwd, exitCode: exit.code, output: tail },
  });
}

function pipeLines(stream: Readable, onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on("line", onLine);
    lines.once("close", resolve);
  });
}
