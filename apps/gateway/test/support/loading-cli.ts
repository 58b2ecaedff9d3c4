import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI } from "./gateway-process.js";

/** A line of a JavaScript stack trace (`    at fn (file:…)`): never shown to people or API clients. */
export const STACK_LINE = /^\s+at\s.+(\(|file:|node:|\/)/m;

/** How one `chorus …` run ended. */
export interface CliRun {
  /** Exit code; null when the run was killed (it outlived its timeout, or started a gateway). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** The run printed `listening on`: a `chorus start` that was expected to fail started instead. */
  started: boolean;
}

export interface CliRunOptions {
  home: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Kill the run after this long (a safety net, not a wait); default 20 s. */
  timeoutMs?: number;
}

/** The parent's environment without CHORUS_* and npm_* settings, pointed at `home`. */
export function cliEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(chorus_|npm_)/i.test(key)));
  return { ...inherited, CHORUS_HOME: home, NO_PROXY: "127.0.0.1,localhost", ...extra };
}

/**
 * Runs `node dist/bin/chorus.js <args>` with `CHORUS_HOME=home` until it exits. A run that starts a
 * gateway (prints `listening on`) is stopped at once and reported as `started`.
 */
export function runChorus(args: readonly string[], options: CliRunOptions): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? options.home,
    env: cliEnv(options.home, options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let started = false;
  const watch = () => {
    if (!started && /listening on/.test(stdout)) {
      started = true;
      child.kill("SIGKILL");
    }
  };
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    watch();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const guard = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, started });
    });
  });
}

/** A temp CHORUS_HOME, with `chorus.json` holding `config` when one is given. */
export async function makeHome(config?: Record<string, unknown>): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "chorus-cli-"));
  if (config) await writeFile(join(home, "chorus.json"), JSON.stringify(config, null, 2));
  return home;
}

/** A TCP port on 127.0.0.1 that was free a moment ago (for configs the CLI reads the port from). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("no port assigned");
  return address.port;
}
