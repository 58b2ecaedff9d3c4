import { CachedLookup } from "@chorus/channel-kit";
import type { GroupMetadata } from "@whiskeysockets/baileys";

/** Groups whose metadata is kept; a gateway in more groups refetches the least recently used. */
const REMEMBERED = 1_000;

/**
 * Group subjects and participants, fetched once per `ttlMs` per group: concurrent lookups of one
 * group share a single request, a failed one is not kept, and `groups.update` /
 * `group-participants.update` invalidate (also a lookup still on its way). Baileys reads it too
 * (`cachedGroupMetadata`), so sending to a group needs no extra lookup.
 */
export type GroupMetadataCache = CachedLookup<GroupMetadata>;

/** The group metadata cache of one instance; `now` is its clock (tests move it instead of waiting). */
export function groupMetadataCache(
  load: (jid: string) => Promise<GroupMetadata>,
  ttlMs: number,
  now: () => number = Date.now,
): GroupMetadataCache {
  return new CachedLookup({ load, ttlMs, capacity: REMEMBERED, now });
}
