import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The people and groups a fake `signal-cli` process starts with. */
export interface FakeCliWorld {
  bot: { number: string; uuid: string; name: string };
  people?: { uuid: string; number: string | null; name: string | null }[];
  /** Without `-a` (multi-account mode): whether the bot's number is linked already; default true. */
  linked?: boolean;
}

/** A fake `signal-cli` executable, and where it logs each start. */
export interface FakeCli {
  /** The executable: `cliPath` for `autoStart`. */
  readonly path: string;
  /** JSON lines, one per start: `{ "pid": …, "args": [...] }`. */
  readonly log: string;
}

/** The compiled entry point (tests run from `src/`, node runs `dist/`). */
function mainScript(): string {
  const here = fileURLToPath(new URL("./fake-signal-cli-main.js", import.meta.url));
  return here.replace(/([\\/])src([\\/]testing[\\/])/, "$1dist$2");
}

/**
 * Writes an executable `signal-cli` into `dir` that runs the fake daemon: `-a <account> daemon
 * --http <host:port>` serves one account on that port, as the real one does. Its output is what
 * signal-cli logs; it stops on SIGTERM. Build the package first (`tsc -b`): it runs from `dist`.
 */
export async function fakeSignalCli(dir: string, world: FakeCliWorld): Promise<FakeCli> {
  const worldFile = join(dir, "fake-signal-cli-world.json");
  const log = join(dir, "fake-signal-cli.log");
  const path = join(dir, "signal-cli");
  await writeFile(worldFile, JSON.stringify(world));
  await writeFile(log, "");
  const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  await writeFile(
    path,
    `#!/bin/sh\nFAKE_SIGNAL_CLI_WORLD=${quote(worldFile)} FAKE_SIGNAL_CLI_LOG=${quote(log)} exec ${quote(process.execPath)} ${quote(mainScript())} "$@"\n`,
  );
  await chmod(path, 0o755);
  return { path, log };
}
