import { agentsDir, type ChorusPaths, makePrivateDir, restrictToOwner, restrictTreeToOwner } from "../support/index.js";

/** Where the home's warnings and notes go: the gateway's logger, or a line on the CLI's stderr. */
export interface HomeLog {
  warn(fields: object, message: string): void;
  info?(fields: object, message: string): void;
}

/** Creates the home owner-only (0700) or tightens it; a home another user owns is left, with a warning. */
export function ensurePrivateHome(home: string, log: HomeLog): void {
  const outcome = makePrivateDir(home);
  if (outcome === "not-owned" || outcome === "refused") {
    log.warn(
      { home, outcome },
      `could not make the Chorus home ${home} private (${outcome}): other local users may be able to read chats`,
    );
  }
}

/**
 * At gateway start: the home owner-only, and what an older install left readable by others —
 * the state and store trees, the sessions mirrors, the token file — tightened (`chorus.db` and
 * its `-wal`/`-shm` are tightened where the database is opened).
 */
export function securePrivateHome(paths: ChorusPaths, log: HomeLog): void {
  ensurePrivateHome(paths.home, log);
  let tightened = 0;
  for (const dir of [paths.state, paths.stores, agentsDir(paths.home)]) tightened += restrictTreeToOwner(dir);
  if (restrictToOwner(paths.tokenFile) === "tightened") tightened++;
  if (tightened > 0) log.info?.({ home: paths.home, tightened }, "made files an older install left readable private");
}
