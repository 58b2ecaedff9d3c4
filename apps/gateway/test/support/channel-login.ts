import { spawn } from "node:child_process";
import { waitFor } from "@chorus/testkit";
import { CLI } from "./gateway-process.js";
import { cliEnv } from "./loading-cli.js";

/** A `chorus channels login <channel> …` process that is still running: the person at the terminal reads it. */
export interface LoginProcess {
  /** Everything it printed so far (stdout + stderr). */
  output(): string;
  /** Waits until the output matches `pattern` and returns the match; fails with the output when it exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Resolves with the exit code once the process has ended; fails when it is still running after `timeoutMs`. */
  exit(timeoutMs?: number): Promise<number | null>;
  /** Ends the process if it is still running (afterAll of a failed test). */
  kill(): void;
}

/**
 * Starts `chorus channels login <channel> <args>` on `home` with stdout piped, so a QR code is
 * printed as its raw string (`QR code: …`) and a pairing code as text.
 */
export function startChannelLogin(channel: string, home: string, args: readonly string[] = []): LoginProcess {
  const child = spawn(process.execPath, [CLI, "channels", "login", channel, ...args], {
    cwd: home,
    env: cliEnv(home),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  });
  return {
    output: () => output,
    async waitForOutput(pattern, timeoutMs = 30_000) {
      const seen = () => {
        const match = pattern.exec(output);
        if (match) return match;
        if (child.exitCode !== null)
          throw new Error(`the login exited with ${child.exitCode} before printing ${pattern}`);
        return undefined;
      };
      return waitFor(seen, {
        timeoutMs,
        message: `${pattern} in the output of chorus channels login ${channel} ${args.join(" ")}`,
      }).catch((error: Error) => {
        throw new Error(`${error.message}; it printed:\n${output}`);
      });
    },
    exit(timeoutMs = 20_000) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the login was still running ${timeoutMs} ms later; it printed:\n${output}`)),
          timeoutMs,
        );
      });
      return Promise.race([exited, late]).finally(() => clearTimeout(timer));
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
