import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built CLI the benchmarks start. */
export const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

/** One cold start of `chorus start`. */
export interface ColdStartSample {
  /** From `spawn` until `GET /healthz` answered 200. */
  ms: number;
  /** The process's resident set size (VmRSS) right then, in bytes. */
  rssBytes: number;
}

/** The resident set size of a process from `/proc/<pid>/status`, in bytes. */
export async function processRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`/proc/${pid}/status has no VmRSS line (is this Linux?)`);
  return Number(match[1]) * 1024;
}

/**
 * Spawns `node dist/cli/main.js start --port 0` in a fresh temp home without a config (the
 * out-of-the-box path: demo agent + webchat), times spawn → first `GET /healthz` 200, reads the
 * process's RSS at that moment, then stops it and removes the home.
 */
export async function measureColdStart(timeoutMs = 20_000): Promise<ColdStartSample> {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} does not exist; build first: cd apps/gateway && npx tsc -b`);
  }
  const home = await mkdtemp(join(tmpdir(), "chorus-bench-cold-"));
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
    return { ms, rssBytes };
  } finally {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    await rm(home, { recursive: true, force: true });
  }
}
