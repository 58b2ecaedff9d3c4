export interface SystemEventsOptions {
  /** Pending events kept per session; the oldest go first. */
  maxPerSession?: number;
  /** Sessions with pending events kept; the least recently added-to go first. */
  maxSessions?: number;
}

/**
 * Notes for a session's next turn (reaction notifications and the like): deduplicated (the same
 * text again moves to the end), bounded per session and across sessions, handed out once.
 */
export class SystemEvents {
  readonly #maxPerSession: number;
  readonly #maxSessions: number;
  readonly #pending = new Map<string, string[]>();

  constructor(options: SystemEventsOptions = {}) {
    this.#maxPerSession = Math.max(1, options.maxPerSession ?? 20);
    this.#maxSessions = Math.max(1, options.maxSessions ?? 1000);
  }

  /** Queues `text` for the next turn of `sessionKey`. */
  add(sessionKey: string, text: string): void {
    const events = (this.#pending.get(sessionKey) ?? []).filter((known) => known !== text);
    events.push(text);
    if (events.length > this.#maxPerSession) events.splice(0, events.length - this.#maxPerSession);
    // Re-insert so the map's order is least recently used first.
    this.#pending.delete(sessionKey);
    this.#pending.set(sessionKey, events);
    for (const oldest of this.#pending.keys()) {
      if (this.#pending.size <= this.#maxSessions) break;
      this.#pending.delete(oldest);
    }
  }

  /** The pending events of `sessionKey`, oldest first; they are gone afterwards. */
  drain(sessionKey: string): string[] {
    const events = this.#pending.get(sessionKey) ?? [];
    this.#pending.delete(sessionKey);
    return events;
  }

  /** Sessions with pending events. */
  get size(): number {
    return this.#pending.size;
  }
}
