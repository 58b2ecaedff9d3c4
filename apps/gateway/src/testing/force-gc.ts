import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * V8's full garbage collection, callable in any process (vitest's worker too): `--expose-gc` set
 * at run time, and `gc` taken from a fresh context, which sees the flag.
 */
export function forceGc(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/**
 * Node flags for a child process (the real gateway) that collects garbage every `everyMs`: a state
 * only a weakly held object kept is lost at once, as a long-running gateway would lose it.
 */
export function gcEveryNodeArgs(everyMs: number): string[] {
  const script = `setInterval(() => globalThis.gc(), ${everyMs}).unref();`;
  return ["--expose-gc", "--import", `data:text/javascript,${encodeURIComponent(script)}`];
}
