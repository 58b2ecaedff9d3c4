import { ChorusError, type Logger, toChorusError } from "@chorus/core";
import { durationSchema } from "../config/index.js";
import type { SessionEntry } from "../sessions/index.js";
import { NO_REPLY } from "../support/index.js";

/** What the agent is asked on a heartbeat when `agents.defaults.heartbeat.prompt` is unset. */
export const DEFAULT_HEARTBEAT_PROMPT =
  "Heartbeat: this is a scheduled check-in, not a message from the user. If something needs the " +
  `user's attention, say it briefly; otherwise answer exactly ${NO_REPLY}.`;

export interface HeartbeatSchedulerOptions {
  /** Time between heartbeats: milliseconds, or a duration like `30m` (`agents.defaults.heartbeat.every`). */
  everyMs: number | string;
  /** The sessions to consider, read at every tick; only direct chats get a heartbeat. */
  sessions(): readonly SessionEntry[] | Promise<readonly SessionEntry[]>;
  /** Runs one heartbeat turn; `signal` aborts when the scheduler stops. */
  run(entry: SessionEntry, signal: AbortSignal): Promise<void>;
  logger: Logger;
}

/**
 * Heartbeats, a direct-chat feature: runs the agent on every direct-chat session at a fixed
 * interval (DESIGN §4, "heartbeats skip groups"): groups are never woken, and a session whose previous heartbeat is still running is skipped for that tick.
 */
export class HeartbeatScheduler {
  /** The interval in milliseconds. */
  readonly everyMs: number;
  readonly #options: HeartbeatSchedulerOptions;
  readonly #running = new Map<string, Promise<void>>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #abort = new AbortController();

  constructor(options: HeartbeatSchedulerOptions) {
    this.everyMs = heartbeatInterval(options.everyMs);
    this.#options = options;
  }

  /** True between `start()` and `stop()`. */
  get started(): boolean {
    return this.#timer !== undefined;
  }

  /** Keys of the sessions whose heartbeat is running now. */
  get running(): string[] {
    return [...this.#running.keys()];
  }

  /** Starts the timer; the first heartbeat comes one interval from now. Starting twice does nothing. */
  start(): void {
    if (this.#timer !== undefined) return;
    if (this.#abort.signal.aborted) this.#abort = new AbortController();
    this.#timer = setInterval(() => void this.tick(), this.everyMs);
    this.#timer.unref?.();
  }

  /** Runs one round now; resolves when the heartbeats it started have ended (failures are logged). */
  async tick(): Promise<void> {
    const { logger } = this.#options;
    let sessions: readonly SessionEntry[];
    try {
      sessions = await this.#options.sessions();
    } catch (error) {
      logger.warn({ err: toChorusError(error).message }, "heartbeat could not list the sessions");
      return;
    }
    const started: Promise<void>[] = [];
    for (const entry of sessions) {
      if (entry.chatType !== "direct") continue;
      if (this.#running.has(entry.key)) {
        logger.debug({ sessionKey: entry.key }, "heartbeat skipped: the previous one is still running");
        continue;
      }
      started.push(this.#runOne(entry));
    }
    await Promise.all(started);
  }

  /** Stops the timer, aborts running heartbeats and resolves once they have ended. */
  async stop(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#abort.abort(new ChorusError("E_DISABLED", "the heartbeat scheduler stopped"));
    await Promise.all(this.#running.values());
  }

  #runOne(entry: SessionEntry): Promise<void> {
    const { logger } = this.#options;
    const signal = this.#abort.signal;
    // Registered before `run` starts (a microtask later), so even a synchronous throw is tracked and cleared.
    const run = Promise.resolve()
      .then(() => this.#options.run(entry, signal))
      .catch((error: unknown) => {
        if (!signal.aborted) {
          logger.warn({ sessionKey: entry.key, err: toChorusError(error).message }, "heartbeat failed");
        }
      })
      .finally(() => this.#running.delete(entry.key));
    this.#running.set(entry.key, run);
    return run;
  }
}

/** The longest interval a Node timer can wait (about 24.8 days); longer ones would fire at once. */
const MAX_INTERVAL_MS = 2 ** 31 - 1;

/** A heartbeat interval in milliseconds from a number or a duration like `30m`; zero, too long or invalid is `E_INVALID_INPUT`. */
export function heartbeatInterval(every: number | string): number {
  const parsed = durationSchema.safeParse(every);
  if (!parsed.success || parsed.data <= 0 || parsed.data > MAX_INTERVAL_MS) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `agents.defaults.heartbeat.every must be a duration between 1ms and 24 days, got ${JSON.stringify(every)}`,
      { hint: 'use a duration like "30m" or "1h", or remove agents.defaults.heartbeat to turn heartbeats off' },
    );
  }
  return parsed.data;
}
