import { execFileSync, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const BENCH_DIR = fileURLToPath(new URL("../", import.meta.url));
let compiled = false;

/**
 * Runs one of the measurement scripts of `bench/support/` in a plain node process, as the gateway
 * runs: vitest's worker keeps its own heap and timers beside the measured code, which moved the GC
 * and the tails of the state and dispatch figures. `src` and `bench/support` are compiled first with
 * `bench/tsconfig.json` into `bench/.build` (a few seconds, once per bench process). The script
 * prints its answer as JSON on its last line of stdout; anything else it prints goes to stderr.
 */
export async function measureInPlainNode<T>(script: string, args: readonly string[] = []): Promise<T> {
  if (!compiled) {
    const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");
    execFileSync(process.execPath, [tsc, "-p", `${BENCH_DIR}tsconfig.json`], { stdio: "inherit" });
    compiled = true;
  }
  const entry = `${BENCH_DIR}.build/bench/support/${script}.js`;
  const child = spawn(process.execPath, [entry, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  const last = stdout.trimEnd().split("\n").at(-1) ?? "";
  if (code !== 0) throw new Error(`bench script ${script} exited with ${code}; its output: ${stdout.slice(-2000)}`);
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`bench script ${script} did not end with a JSON line: ${last.slice(0, 500)}`);
  }
}
