import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built CLI the benchmarks start. */
export const CLI = fileURLToPath(new URL("../../dist/bin/chorus.js", import.meta.url));

/** One cold start of `chorus start`. */
export interface ColdStartSample {
  /** From `spawn` until `GET /healthz` answered 200. */
  ms: number;
  /** The process's resident set size (VmRSS) right then, in bytes. */
  rssBytes: number;
  /** VmRSS 2 s after `/healthz` first answered 200, in bytes. */
  settledRssBytes: number;
}

export interface ColdStartOptions {
  /** The config (`chorus.json`) to start with; without one, no config file (demo agent + webchat). */
  config?: Record<string, unknown>;
  timeoutMs?: number;
  /** How long after ready `settledRssBytes` is read. */
  settleMs?: number;
}

/** The resident set size of a process from `/proc/<pid>/status`, in bytes. */
export async function processRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`/proc/${pid}/status has no VmRSS line (is this Linux?)`);
  return Number(match[1]) * 1024;
}

/**
 * Spawns `node dist/bin/chorus.js start --port 0` in a fresh temp home, without a config (the
 * out-of-the-box path: demo agent + webchat) or with `options.config`, times spawn → first
 * `GET /healthz` 200, reads the process's RSS at that moment and `settleMs` later, then stops it
 * and removes the home.
 */
export async function measureColdStart(options: ColdStartOptions = {}): Promise<ColdStartSample> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} does not exist; build first: cd apps/gateway && pnpm build`);
  }
  const home = await mkdtemp(join(tmpdir(), "chorus-bench-cold-"));
  if (options.config) await writeFile(join(home, "chorus.json"), JSON.stringify(options.config));
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, "start", "--port", "0"], {
    env: { ...process.env, CHORUS_HOME: home, CHORUS_CONFIG: "", NO_PROXY: "127.0.0.1,localhost" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let output = "";
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`chorus start printed no "listening on" within ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      );
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (\S+)/.exec(output);
        if (!match) return;
        clearTimeout(timer);
        resolve(match[1] as string);
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`chorus start exited with ${code} before listening:\n${output}`));
      });
    });
    for (;;) {
      const response = await fetch(`${url}/healthz`);
      await response.body?.cancel();
      if (response.status === 200) break;
      if (performance.now() - started > timeoutMs) {
        throw new Error(`GET /healthz answered ${response.status}, not 200, for ${timeoutMs} ms`);
      }
    }
    const ms = performance.now() - started;
    const rssBytes = await processRss(child.pid as number);
    await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 2_000));
    if (child.exitCode !== null) throw new Error(`chorus start exited with ${child.exitCode} after ready:\n${output}`);
    const settledRssBytes = await processRss(child.pid as number);
    return { ms, rssBytes, settledRssBytes };
  } finally {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    await rm(home, { recursive: true, force: true });
  }
}
