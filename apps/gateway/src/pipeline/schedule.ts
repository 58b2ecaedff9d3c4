import { isChorusError } from "@chorus/core";
import type { Logger } from "pino";
import { type AccountKey, accountKey } from "../channels/index.js";
import type { TurnQueue } from "../sessions/index.js";
import { type InboxRow, isStateUnavailable, type StateStore } from "../state/index.js";
import type { Deliver } from "./deliver.js";
import type { StateOutage } from "./state-outage.js";
import { StepCommits } from "./step-commits.js";

export interface SchedulerOptions {
  state: StateStore;
  queue: TurnQueue;
  /** Sends what a session left in the outbox (the deliver step). */
  deliver: Deliver;
  /** Whether this gateway runs that account's turns now (its instance runs here). */
  runsHere(key: AccountKey): boolean;
  /**
   * Handles a message row of a session; its commit marks the row done. Resolves true when that
   * commit was only started, added to `step.commits` (a group message kept as context): the
   * session's next row may follow at once.
   */
  handle(row: InboxRow, signal: AbortSignal, step: StepContext): Promise<boolean>;
  /** Handles a row that feeds no session (a reaction a crash left). */
  handleLoose(row: InboxRow): Promise<void>;
  /** Told when work fails because the state is unavailable, and when it succeeds again. */
  outage: StateOutage;
  logger: Logger;
}

type Step = "more" | "idle" | "elsewhere";

/** What a step tells the handler of each of its rows. */
export interface StepContext {
  /** The commits of the step's earlier rows that it has not waited for yet. */
  commits: StepCommits;
  /** The session's entry was read fresh for an earlier row of this step (it holds the session's lock since). */
  fresh: boolean;
}

/** Rows a step takes at most: a run of messages kept as context is decided and committed together. */
const ROWS_PER_STEP = 64;

/**
 * Rows the first read of a step takes: the one it handles and one more, which tells whether the
 * session has more (so a turn's step ends "idle" on SQLite instead of a next step finding nothing).
 */
const FIRST_READ = 2;

/** A reaction row still not done this long after it was committed was left by a crash (or a dead gateway). */
const LOOSE_AFTER_MS = 10_000;
/** The `meta` row the sweep writes during an outage to learn whether the state takes writes again. */
const STATE_PROBE_KEY = "state_probe";

/**
 * The schedule step: takes a session's work from the state, per session, in inbox order, one step
 * at a time — first what the session left in the outbox (sent by the deliver step: this is how a
 * reply is retried after a crash or while its channel was down), then its oldest inbox rows not
 * done, each handled by the handle step (a run of group messages kept as context is decided in one
 * step and committed together). Each step holds the session's lock (PostgreSQL: an advisory lock,
 * so no two gateways run one session's turns at once; SQLite: the turn queue alone). A sweep finds
 * the work nobody woke: rows and replies left by a crash (at start), by a gateway that died, or of
 * an account whose lease was just taken.
 */
export class Scheduler {
  readonly #scheduled = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;
  #stopped = false;

  constructor(private readonly options: SchedulerOptions) {}

  /** A session has work: run its next step (once per wake; a step that found more wakes it again). */
  wake(sessionKey: string): void {
    if (this.#stopped || this.#scheduled.has(sessionKey)) return;
    this.#scheduled.add(sessionKey);
    this.options.queue
      .run(sessionKey, (signal) => this.#step(sessionKey, signal))
      .then(
        (step) => {
          if (step === "more") this.wake(sessionKey);
        },
        (error: unknown) => {
          this.#scheduled.delete(sessionKey);
          if (this.#stopped) return;
          // Its rows stay received; the sweep wakes the session again once the state is back.
          if (isStateUnavailable(error)) this.options.outage.failed(error);
          else this.options.logger.error({ err: error, sessionKey }, "message handling failed");
        },
      );
  }

  /** Wakes every session with rows received and not done or replies not sent, of accounts that run here. */
  sweep(): Promise<void> {
    this.#sweeping ??= this.#writable()
      .then(() => this.#sweep())
      .then(
        () => this.options.outage.recovered(),
        (error: unknown) => {
          if (!isStateUnavailable(error)) throw error;
          this.options.outage.failed(error);
        },
      )
      .finally(() => {
        this.#sweeping = undefined;
      });
    return this.#sweeping;
  }

  /** Sweeps every `intervalMs` (several gateways: work of a gateway that died is picked up). */
  every(intervalMs: number): void {
    this.#timer = setInterval(() => {
      this.sweep().catch((error: unknown) => this.options.logger.warn({ err: error }, "inbox sweep failed"));
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
  }

  /**
   * During an outage, a write before anything is woken: reads may work while writes fail (another
   * process's lock, a full disk), and a turn whose commit would fail must not call the model first.
   */
  async #writable(): Promise<void> {
    if (this.options.outage.since === undefined) return;
    await this.options.state.db.tx((sql) =>
      sql.run("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [
        STATE_PROBE_KEY,
        String(Date.now()),
      ]),
    );
  }

  async #sweep(): Promise<void> {
    const { state, runsHere } = this.options;
    const here = (row: { channel: string; account: string }) => runsHere(accountKey(row.channel, row.account));
    for (const session of await state.inbox.receivedSessions()) if (here(session)) this.wake(session.sessionKey);
    // A reaction is handled by the gateway that received it, at once; one left for a while was left by a crash.
    for (const row of await state.inbox.receivedLoose(Date.now() - LOOSE_AFTER_MS)) {
      if (!here(row)) continue;
      // Claimed by marking it done first: with several gateways, one of them handles it.
      const claimed = await state.db.tx((sql) => state.inbox.done(sql, row.id, Date.now()));
      if (claimed) await this.options.handleLoose(row).catch(() => undefined);
    }
    for (const reply of await state.outbox.pending()) if (here(reply)) this.wake(reply.sessionKey);
  }

  async #step(sessionKey: string, signal: AbortSignal): Promise<Step> {
    this.#scheduled.delete(sessionKey);
    const { state, deliver, runsHere } = this.options;
    const locked = await state.db.withLock(`session:${sessionKey}`, async (): Promise<Step> => {
      const unsent = await state.outbox.pending(sessionKey);
      for (const reply of unsent) {
        if (!runsHere(accountKey(reply.channel, reply.account))) return "elsewhere";
        await deliver([reply]);
      }
      // A reply its channel could not take yet (not running): the session waits, in order; the sweep retries.
      if (unsent.length > 0 && (await state.outbox.pending(sessionKey)).length > 0) return "elsewhere";
      const commits = new StepCommits();
      let step: Step;
      try {
        step = await this.#rows(sessionKey, signal, commits);
      } catch (error) {
        await commits.settled().catch(() => undefined);
        throw error;
      }
      // The session's lock is not let go before its rows' commits are done.
      await commits.settled();
      return step;
    });
    return locked.ran ? locked.value : "idle";
  }

  /**
   * Handles the session's oldest rows in order while each only started its commit, up to
   * `ROWS_PER_STEP`; stops after one that did more (a turn, a reply). The first read takes
   * `FIRST_READ` rows; once a row was deferred, the next read takes many. On SQLite the step is
   * "idle" as soon as a read saw no row after the last one handled (it returned fewer than it asked
   * for), after a row that did more as after a run of deferred ones: every row committed later
   * wakes the session itself. On PostgreSQL another gateway may have added rows without waking this
   * one, so the session is read again at once ("more").
   */
  async #rows(sessionKey: string, signal: AbortSignal, commits: StepCommits): Promise<Step> {
    const { state, runsHere } = this.options;
    // SQLite: every row committed after a read wakes the session itself. PostgreSQL: another
    // gateway may have added rows without waking this one, so a session is read until it is empty.
    const rereads = state.backend === "postgres";
    let handled = 0;
    let after = 0;
    while (handled < ROWS_PER_STEP) {
      const limit = handled === 0 ? FIRST_READ : ROWS_PER_STEP - handled;
      const rows = await state.inbox.nextRows(sessionKey, limit, after);
      if (rows.length === 0) return handled === 0 || !rereads ? "idle" : "more";
      for (let index = 0; index < rows.length; index++) {
        const row = rows[index] as InboxRow;
        if (!runsHere(accountKey(row.channel, row.account))) return "elsewhere";
        let deferred = false;
        try {
          deferred = await this.options.handle(row, signal, { commits, fresh: handled > 0 });
        } catch (error) {
          // A shutdown, a lost lease or a state that is unavailable for now leaves the row for later;
          // anything else would fail again: drop it, loudly.
          if (signal.aborted || this.#stopped || isStateUnavailable(error)) throw error;
          if (isChorusError(error) && error.code === "E_DISABLED") throw error;
          this.options.logger.error({ err: error, sessionKey, eventId: row.eventId }, "message handling failed");
          await state.db.tx((sql) => state.inbox.done(sql, row.id, Date.now()));
        }
        handled++;
        after = row.id;
        if (!deferred) {
          const seenMore = index < rows.length - 1 || rows.length === limit;
          return seenMore || rereads ? "more" : "idle";
        }
      }
      // The read took every row there was: no read more (and no step more) only to find none.
      if (rows.length < limit && !rereads) return "idle";
    }
    return "more";
  }
}
