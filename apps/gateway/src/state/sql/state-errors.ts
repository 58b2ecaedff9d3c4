import { ChorusError } from "@chorus/core";

/**
 * The state database cannot be reached or written for now — a dropped or refused connection, a
 * server shutting down, a locked or full disk. Nothing is marked done on it: inbound is refused
 * (the channel does not acknowledge), turns pause, and both are tried again once the state is back.
 */
export class StateUnavailableError extends ChorusError {
  override readonly name = "StateUnavailableError";

  constructor(message: string, cause?: unknown) {
    super("E_PLATFORM", message, {
      retryable: true,
      hint: "The gateway retries by itself; check the state database (its server, its disk) if it lasts.",
      details: { state: "unavailable" },
      cause,
    });
  }
}

/** Whether `error` says the state is unavailable for now (see `StateUnavailableError`). */
export function isStateUnavailable(error: unknown): error is StateUnavailableError {
  return (
    error instanceof StateUnavailableError ||
    (error instanceof ChorusError && (error.details as { state?: unknown } | undefined)?.state === "unavailable")
  );
}

/** Node's error codes of a connection that failed or dropped, or a disk that is full or failing. */
const NETWORK_OR_DISK = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOSPC",
  "EDQUOT",
  "EIO",
]);
/** PostgreSQL's SQLSTATEs of a connection or server that is going away or not there yet. */
const POSTGRES_TRANSIENT = /^(08\w{3}|57P0[123]|53300)$/;
const POSTGRES_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Connection ended unexpectedly/i;
/** SQLite's result codes of a file that is busy, locked, full or failing for now. */
const SQLITE_TRANSIENT = new Map([
  [5, "the database file is locked by another process (SQLITE_BUSY)"],
  [6, "a table is locked (SQLITE_LOCKED)"],
  [10, "a disk I/O error (SQLITE_IOERR)"],
  [13, "the disk is full (SQLITE_FULL)"],
]);

/**
 * A driver's error as the state layer reports it: a transient one (see the tables above) becomes a
 * `StateUnavailableError` naming what happened, anything else (a bad statement, a constraint) stays.
 */
export function classifyStateError(error: unknown, where: string): unknown {
  if (isStateUnavailable(error) || !(error instanceof Error)) return error;
  const { code, errcode } = error as Error & { code?: unknown; errcode?: unknown };
  const primary = typeof errcode === "number" ? errcode & 0xff : undefined;
  const sqlite = primary === undefined ? undefined : SQLITE_TRANSIENT.get(primary);
  if (sqlite) return new StateUnavailableError(`the state database ${where} is unavailable: ${sqlite}`, error);
  const transient =
    (typeof code === "string" && (NETWORK_OR_DISK.has(code) || POSTGRES_TRANSIENT.test(code))) ||
    POSTGRES_MESSAGES.test(error.message);
  if (!transient) return error;
  return new StateUnavailableError(`the state database ${where} is unavailable: ${error.message}`, error);
}
