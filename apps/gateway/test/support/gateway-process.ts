import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { waitFor } from "@chorus/testkit";

export const GATEWAY_DIR = fileURLToPath(new URL("../..", import.meta.url));
export const CLI = join(GATEWAY_DIR, "dist", "bin", "chorus.js");
export const FIXTURES = fileURLToPath(new URL("../fixtures", import.meta.url));

export interface GatewayProcess {
  home: string;
  url: string;
  token: string;
  process: ChildProcess;
  /** Everything the process printed so far (stdout + stderr). */
  output(): string;
  /** JSON log lines the process printed. */
  logs(): Record<string, unknown>[];
  // biome-ignore lint/suspicious/noExplicitAny: API replies are checked field by field in the tests
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  config?: Record<string, unknown>;
  /** Start without any config file (the out-of-the-box experience). */
  noConfig?: boolean;
  home?: string | undefined;
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** Flags for node itself, before the CLI (`--cpu-prof`, say). */
  nodeArgs?: string[];
}

/**
 * Gateways started and not yet exited. A test or benchmark that throws before its `stop()` must not
 * leave one running (its accounts would go on polling ports later tests reuse): they end with the
 * process that started them.
 */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Starts the real `chorus start` process on a free port with its own CHORUS_HOME. */
export async function startGatewayProcess(options: StartOptions = {}): Promise<GatewayProcess> {
  const home = options.home ?? (await mkdtemp(join(tmpdir(), "chorus-home-")));
  if (!options.noConfig) {
    const config = { ...options.config, gateway: { port: 0, ...(options.config?.gateway as object | undefined) } };
    await writeFile(join(home, "chorus.json"), JSON.stringify(config, null, 2));
  }
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, "start", ...(options.args ?? [])], {
    env: { ...process.env, CHORUS_HOME: home, CHORUS_CONFIG: "", NO_PROXY: "127.0.0.1,localhost", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  running.add(child);
  void exited.then(() => running.delete(child));
  await waitFor(() => /listening on (\S+)/.test(output) || child.exitCode !== null, {
    timeoutMs: 20_000,
    message: "the gateway did not start",
  }).catch((error: Error) => {
    throw new Error(`${error.message}\n${output}`);
  });
  if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}:\n${output}`);
  const url = (/listening on (\S+)/.exec(output) as RegExpExecArray)[1] as string;
  const configured = (options.config?.gateway as { auth?: { token?: string } } | undefined)?.auth?.token;
  // The token is printed only when the gateway generates it; on a later start it is in the token file.
  const token =
    configured ?? /API token: (\S+)/.exec(output)?.[1] ?? (await readFile(join(home, "gateway-token"), "utf8")).trim();
  return {
    home,
    url,
    token,
    process: child,
    output: () => output,
    logs: () =>
      output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    async call(method, path, body) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, json: await response.json() };
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Removes a temp home after a test. */
export async function removeHome(home: string): Promise<void> {
  await rm(home, { recursive: true, force: true });
}
