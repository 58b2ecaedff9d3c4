import type { Logger } from "pino";
import type { Lease, Sql, StateStore } from "../state/index.js";

/** What a lease guards: the connection of one channel account. */
export interface LeasedAccount {
  /** `<channel>:<account>`. */
  name: string;
  /** Starts the connection here (the lease was taken). */
  start(): Promise<void>;
  /** Stops it (the lease was lost, or the gateway stops). */
  stop(): Promise<void>;
}

export interface LeaseKeeperOptions {
  state: StateStore;
  /** This gateway's name in the leases table. */
  holder: string;
  /** How long a lease lasts without renewal (default 10 s). */
  ttlMs: number;
  logger: Logger;
  /** Called after a lease was taken and its connection started (to pick up work left behind). */
  onAcquired(name: string): void;
}

interface Held {
  account: LeasedAccount;
  lease?: Lease | undefined;
  /** Local time the lease was last confirmed. */
  confirmedAt: number;
  busy: boolean;
}

/**
 * Runs each connection-holding channel account on exactly one gateway sharing the database: it
 * tries to take the lease every ttl/5, renews it as often while holding it, and stops the
 * connection as soon as it cannot be sure it still holds it (a renewal failed for longer than
 * ttl minus a margin). A dead holder's lease expires after `ttlMs` and is taken within ttl/5 after
 * that (10 s + 2 s by default, under the 15 s promised). The fencing token is checked by every
 * inbox and turn commit of that account (`fence`).
 */
export class LeaseKeeper {
  readonly #held = new Map<string, Held>();
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(private readonly options: LeaseKeeperOptions) {}

  /** Starts keeping leases on these accounts. */
  start(accounts: readonly LeasedAccount[]): void {
    for (const account of accounts) this.#held.set(account.name, { account, confirmedAt: 0, busy: false });
    const tick = () => {
      for (const held of this.#held.values()) void this.#tick(held);
    };
    tick();
    this.#timer = setInterval(tick, Math.max(200, Math.floor(this.options.ttlMs / 5)));
  }

  /** The lease this gateway holds on `name`, if any. */
  held(name: string): Lease | undefined {
    return this.#held.get(name)?.lease;
  }

  /** The fencing check for commits of `name`'s events and turns; undefined when `name` is not leased. */
  fence(name: string): ((sql: Sql) => Promise<void>) | undefined {
    const held = this.#held.get(name);
    if (!held) return undefined;
    return async (sql) => {
      const lease = held.lease;
      await this.options.state.leases.fence(sql, name, this.options.holder, lease?.token ?? -1);
    };
  }

  /** Stops every connection and gives the leases up, so another gateway takes them at once. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    await Promise.all(
      [...this.#held.values()].map(async (held) => {
        const lease = held.lease;
        if (!lease) return;
        held.lease = undefined;
        await held.account.stop().catch(() => undefined);
        await this.options.state.leases.release(lease.name, lease.holder, lease.token).catch(() => undefined);
      }),
    );
  }

  async #tick(held: Held): Promise<void> {
    if (held.busy || this.#stopped) return;
    held.busy = true;
    const { state, holder, ttlMs, logger } = this.options;
    const name = held.account.name;
    try {
      let lease: Lease | undefined;
      try {
        lease = await state.leases.acquire(name, holder, ttlMs);
      } catch (error) {
        logger.warn({ lease: name, err: (error as Error).message }, "could not renew a lease");
        // Unsure whether it still holds it: stop before it could have expired.
        if (held.lease && Date.now() - held.confirmedAt > ttlMs - Math.min(3_000, ttlMs / 3)) await this.#lose(held);
        return;
      }
      if (this.#stopped) return;
      if (lease && held.lease && lease.token !== held.lease.token) await this.#lose(held);
      if (!lease) {
        if (held.lease) await this.#lose(held);
        return;
      }
      held.confirmedAt = Date.now();
      if (held.lease) return;
      held.lease = lease;
      logger.info({ lease: name, token: lease.token }, "took the lease: this gateway runs the account");
      await held.account.start();
      this.options.onAcquired(name);
    } finally {
      held.busy = false;
    }
  }

  async #lose(held: Held): Promise<void> {
    held.lease = undefined;
    this.options.logger.warn({ lease: held.account.name }, "lost the lease: stopping the account here");
    await held.account.stop().catch(() => undefined);
  }
}
