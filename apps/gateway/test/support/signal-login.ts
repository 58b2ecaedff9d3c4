import { spawn } from "node:child_process";
import { waitFor } from "@chorus/testkit";
import { CLI } from "./gateway-process.js";
import { cliEnv } from "./loading-cli.js";
import type { LoginProcess } from "./whatsapp-login.js";

/**
 * Starts `chorus channels login signal <args>` on `home` with stdout piped, so the link URI is
 * printed as its raw string (`QR code: sgnl://linkdevice?…`).
 */
export function startSignalLogin(home: string, args: readonly string[] = []): LoginProcess {
  const child = spawn(process.execPath, [CLI, "channels", "login", "signal", ...args], {
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
    waitForOutput(pattern, timeoutMs = 20_000) {
      const seen = () => {
        const match = pattern.exec(output);
        if (match) return match;
        if (child.exitCode !== null)
          throw new Error(`the login exited with ${child.exitCode} before printing ${pattern}`);
        return undefined;
      };
      return waitFor(seen, { timeoutMs, message: `${pattern} in the output of chorus channels login signal` }).catch(
        (error: Error) => {
          throw new Error(`${error.message}; it printed:\n${output}`);
        },
      );
    },
    exit(timeoutMs = 20_000) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the login still ran ${timeoutMs} ms later; it printed:\n${output}`)),
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
