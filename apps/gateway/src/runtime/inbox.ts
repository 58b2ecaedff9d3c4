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

/**
 * Commits inbound events to the durable inbox before their channel acknowledges the platform.
 * Events of one account that arrive in the same tick share one durable transaction (group
 * commit: one fsync for a whole `getUpdates` batch or a burst of webhooks).
 */
export class InboxWriter {
  readonly #batches = new Map<string, Pending[]>();

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
    const key = `${channel}\u0000${account}`;
    return new Promise((resolve, reject) => {
      let batch = this.#batches.get(key);
      if (!batch) {
        batch = [];
        this.#batches.set(key, batch);
        setImmediate(() => void this.#commit(key, channel, account));
      }
      batch.push({ insert, committed, resolve, reject });
    });
  }

  async #commit(key: string, channel: string, account: string): Promise<void> {
    const batch = this.#batches.get(key) ?? [];
    this.#batches.delete(key);
    try {
      const ids = await this.state.inbox.accept(
        batch.map((p) => p.insert),
        Date.now(),
        this.fenceOf(channel, account),
        (committed) => {
          for (const [i, pending] of batch.entries()) pending.committed?.(committed[i]);
        },
      );
      if (ids.some((id) => id !== undefined)) this.onCommitted();
      for (const [i, pending] of batch.entries()) pending.resolve(ids[i]);
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }
}
