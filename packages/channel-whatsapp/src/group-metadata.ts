import type { GroupMetadata } from "@whiskeysockets/baileys";
import { BoundedMap } from "./bounded.js";

/** Groups whose metadata is kept; a gateway in more groups refetches the least recently fetched. */
const REMEMBERED = 1_000;

/**
 * Group subjects and participants, fetched once per `ttlMs` per group: concurrent lookups of one
 * group share a single request, and `groups.update` / `group-participants.update` invalidate.
 * Baileys reads it too (`cachedGroupMetadata`), so sending to a group needs no extra lookup.
 */
export class GroupMetadataCache {
  readonly #entries = new BoundedMap<string, { metadata: GroupMetadata; fetchedAt: number }>(REMEMBERED);
  readonly #inflight = new Map<string, Promise<GroupMetadata>>();
  /** Bumped by `invalidate`, so a lookup that started before it does not store stale data. */
  readonly #generation = new Map<string, number>();

  constructor(
    private readonly load: (jid: string) => Promise<GroupMetadata>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached metadata when it is still fresh; never fetches. */
  peek(jid: string): GroupMetadata | undefined {
    const entry = this.#entries.get(jid);
    return entry && this.now() - entry.fetchedAt < this.ttlMs ? entry.metadata : undefined;
  }

  /** The group's metadata, from the cache or one shared lookup; a failed lookup is not cached. */
  get(jid: string): Promise<GroupMetadata> {
    const fresh = this.peek(jid);
    if (fresh) return Promise.resolve(fresh);
    const running = this.#inflight.get(jid);
    if (running) return running;
    const generation = this.#generation.get(jid) ?? 0;
    const lookup = this.load(jid)
      .then((metadata) => {
        if ((this.#generation.get(jid) ?? 0) === generation) {
          this.#entries.set(jid, { metadata, fetchedAt: this.now() });
        }
        return metadata;
      })
      .finally(() => {
        if (this.#inflight.get(jid) === lookup) this.#inflight.delete(jid);
      });
    this.#inflight.set(jid, lookup);
    return lookup;
  }

  /** Forgets a group's metadata (its subject or members changed). */
  invalidate(jid: string): void {
    this.#entries.delete(jid);
    this.#inflight.delete(jid);
    this.#generation.set(jid, (this.#generation.get(jid) ?? 0) + 1);
  }
}
