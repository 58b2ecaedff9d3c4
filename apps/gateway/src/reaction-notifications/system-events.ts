import type { Sql, StateStore } from "../state/index.js";

/** The `kv` scope of sessions' pending system events. */
export const SYSTEM_EVENTS_SCOPE = "system-events";

export interface SystemEventsOptions {
  /** Pending events kept per session; the oldest go first (default 20). */
  maxPerSession?: number;
  /** How long a session's pending events wait for its next turn (default 7 days; `prune` forgets older ones). */
  keepMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

/**
 * Notes for a session's next turn (reaction notifications and the like), on the state layer so
 * that the next turn sees them whichever gateway noted them and whichever runs it: deduplicated
 * (the same text again moves to the end), bounded per session, and in time (`keepMs`). A turn
 * reads them (`peek`) and removes the ones it showed in its own commit (`consume`): a turn that a
 * crash cut short leaves them for the turn run again.
 */
export class SystemEvents {
  readonly #maxPerSession: number;
  readonly #keepMs: number;
  readonly #now: () => number;

  constructor(
    private readonly state: Pick<StateStore, "kv">,
    options: SystemEventsOptions = {},
  ) {
    this.#maxPerSession = Math.max(1, options.maxPerSession ?? 20);
    this.#keepMs = Math.max(1, options.keepMs ?? 7 * 86_400_000);
    this.#now = options.now ?? Date.now;
  }

  /** Queues `text` for the next turn of `sessionKey`. */
  add(sessionKey: string, text: string): Promise<void> {
    const { kv } = this.state;
    return kv.update(SYSTEM_EVENTS_SCOPE, sessionKey, async (sql) => {
      const now = this.#now();
      const events = parse(await kv.get(SYSTEM_EVENTS_SCOPE, sessionKey, now, sql)).filter((known) => known !== text);
      events.push(text);
      if (events.length > this.#maxPerSession) events.splice(0, events.length - this.#maxPerSession);
      await kv.set(SYSTEM_EVENTS_SCOPE, sessionKey, JSON.stringify(events), now + this.#keepMs, sql);
    });
  }

  /** The pending events of `sessionKey`, oldest first; they stay until a commit `consume`s them. */
  async peek(sessionKey: string): Promise<string[]> {
    return parse(await this.state.kv.get(SYSTEM_EVENTS_SCOPE, sessionKey, this.#now()));
  }

  /** In the caller's transaction: removes `shown` from the pending events of `sessionKey` (those added since stay). */
  async consume(sql: Sql, sessionKey: string, shown: readonly string[]): Promise<void> {
    if (shown.length === 0) return;
    const { kv } = this.state;
    await kv.lock(sql, SYSTEM_EVENTS_SCOPE, sessionKey);
    const now = this.#now();
    const left = parse(await kv.get(SYSTEM_EVENTS_SCOPE, sessionKey, now, sql)).filter((text) => !shown.includes(text));
    if (left.length === 0) await kv.delete(SYSTEM_EVENTS_SCOPE, sessionKey, now, sql);
    else await kv.set(SYSTEM_EVENTS_SCOPE, sessionKey, JSON.stringify(left), now + this.#keepMs, sql);
  }

  /** The pending events of `sessionKey`, oldest first, removed at once (for callers without a commit of their own). */
  async drain(sessionKey: string): Promise<string[]> {
    const events = await this.peek(sessionKey);
    if (events.length > 0) {
      await this.state.kv.update(SYSTEM_EVENTS_SCOPE, sessionKey, (sql) => this.consume(sql, sessionKey, events));
    }
    return events;
  }

  /** Forgets events that waited longer than `keepMs`; resolves with how many sessions' were dropped. */
  prune(): Promise<number> {
    return this.state.kv.prune(SYSTEM_EVENTS_SCOPE, this.#now());
  }
}

function parse(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}
