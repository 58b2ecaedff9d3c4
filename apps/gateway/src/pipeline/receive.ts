import type { InboundEvent } from "@chorus/core";
import type { InboxInsert, Sql, StateStore } from "../state/index.js";

interface Pending {
  insert: InboxInsert;
  committed: ((id: number | undefined) => void) | undefined;
  resolve(id: number | undefined): void;
  reject(error: unknown): void;
}

/** The fencing check of one channel account's writes, when it runs under a lease. */
export type FenceOf = (channel: string, account: string) => ((sql: Sql) => Promise<void>) | undefined;

const accountKey = (insert: InboxInsert) => `${insert.channel}\u0000${insert.account}`;

/**
 * Commits inbound events to the durable inbox before their channel acknowledges the platform.
 * Events that arrive in the same tick share one durable transaction, whatever their account
 * (group commit: one fsync for a whole `getUpdates` batch, a burst of webhooks, or the polls and
 * webhooks of many accounts at once). Every account's fence runs in that transaction; when it
 * fails (a refused fence, say), each account's events are committed again on their own, so one
 * account's lost lease fails only its own events.
 */
export class InboxWriter {
  /** The events of this tick, in the order they arrived. */
  #tick: Pending[] | undefined;

  constructor(
    private readonly state: StateStore,
    private readonly fenceOf: FenceOf = () => undefined,
    /** Called after each commit that added rows (the event stream reads them). */
    private readonly onCommitted: () => void = () => {},
  ) {}

  /**
   * Commits one event; resolves with its new inbox row id (or undefined for a redelivery) once it
   * is on the disk, when the platform may be told it was received. `committed` gets the id as soon
   * as the row is readable: a turn may start then, without waiting for the disk.
   */
  accept(
    channel: string,
    account: string,
    event: InboundEvent,
    sessionKey: string | null,
    committed?: (id: number | undefined) => void,
  ): Promise<number | undefined> {
    const insert: InboxInsert = {
      channel,
      account,
      eventId: event.eventId,
      sessionKey,
      event,
      refs: event.type === "message" ? [event.ref] : [],
    };
    if (!this.#tick) {
      this.#tick = [];
      setImmediate(() => void this.#commitTick());
    }
    const tick = this.#tick;
    return new Promise((resolve, reject) => tick.push({ insert, committed, resolve, reject }));
  }

  async #commitTick(): Promise<void> {
    const tick = this.#tick ?? [];
    this.#tick = undefined;
    const byAccount = new Map<string, Pending[]>();
    for (const p of tick) {
      const key = accountKey(p.insert);
      const pending = byAccount.get(key);
      if (pending) pending.push(p);
      else byAccount.set(key, [p]);
    }
    if (byAccount.size === 1) return this.#commit(tick);
    try {
      await this.#commit(tick, { settleOnFailure: false });
    } catch {
      await Promise.all([...byAccount.values()].map((pending) => this.#commit(pending)));
    }
  }

  /**
   * Commits the events in one durable transaction, the fence of each of their accounts first,
   * and settles their promises; on failure it rejects them, or (`settleOnFailure: false`) throws.
   */
  async #commit(pending: readonly Pending[], { settleOnFailure = true } = {}): Promise<void> {
    const accounts = new Map(pending.map(({ insert }) => [accountKey(insert), insert]));
    const fences = [...accounts.values()].flatMap((insert) => this.fenceOf(insert.channel, insert.account) ?? []);
    let ids: (number | undefined)[];
    try {
      ids = await this.state.inbox.accept(
        pending.map((p) => p.insert),
        Date.now(),
        fences.length === 0
          ? undefined
          : async (sql) => {
              for (const fence of fences) await fence(sql);
            },
        (committed) => {
          for (const [i, p] of pending.entries()) p.committed?.(committed[i]);
        },
      );
    } catch (error) {
      if (!settleOnFailure) throw error;
      for (const p of pending) p.reject(error);
      return;
    }
    if (ids.some((id) => id !== undefined)) this.onCommitted();
    for (const [i, p] of pending.entries()) p.resolve(ids[i]);
  }
}
