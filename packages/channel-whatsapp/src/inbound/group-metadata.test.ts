import type { GroupMetadata } from "@whiskeysockets/baileys";
import { describe, expect, it } from "vitest";
import { family } from "../fixtures/messages.js";
import { groupMetadataCache } from "./group-metadata.js";

/** A lookup that answers when told to, counting how often it was asked. */
function lookup() {
  const pending: { resolve: (m: GroupMetadata) => void; reject: (e: Error) => void }[] = [];
  const calls: string[] = [];
  const load = (jid: string) => {
    calls.push(jid);
    return new Promise<GroupMetadata>((resolve, reject) => pending.push({ resolve, reject }));
  };
  return { load, calls, pending };
}

describe("groupMetadataCache", () => {
  it("concurrent lookups of one group share one request; the answer is cached for the TTL", async () => {
    let now = 1_000;
    const source = lookup();
    const cache = groupMetadataCache(source.load, 60_000, () => now);
    const both = Promise.all([cache.get(family.id), cache.get(family.id)]);
    expect(source.calls).toEqual([family.id]);
    source.pending[0]?.resolve(family);
    expect(await both).toEqual([family, family]);
    expect(cache.peek(family.id)).toBe(family);
    now += 59_999;
    expect(await cache.get(family.id)).toBe(family);
    expect(source.calls).toHaveLength(1);
    now += 1;
    expect(cache.peek(family.id)).toBeUndefined();
    const refetch = cache.get(family.id);
    source.pending[1]?.resolve({ ...family, subject: "Family 2026" });
    expect((await refetch).subject).toBe("Family 2026");
  });

  it("a failed lookup is not cached", async () => {
    const source = lookup();
    const cache = groupMetadataCache(source.load, 60_000);
    const first = cache.get(family.id);
    source.pending[0]?.reject(new Error("rate-overlimit"));
    await expect(first).rejects.toThrow("rate-overlimit");
    const second = cache.get(family.id);
    expect(source.calls).toHaveLength(2);
    source.pending[1]?.resolve(family);
    expect(await second).toBe(family);
  });

  it("invalidate forgets the group, also an answer still on its way", async () => {
    const source = lookup();
    const cache = groupMetadataCache(source.load, 60_000);
    const stale = cache.get(family.id);
    cache.invalidate(family.id);
    source.pending[0]?.resolve(family);
    await stale;
    expect(cache.peek(family.id)).toBeUndefined();
    const fresh = cache.get(family.id);
    source.pending[1]?.resolve({ ...family, subject: "Renamed" });
    await fresh;
    expect(cache.peek(family.id)?.subject).toBe("Renamed");
    cache.invalidate(family.id);
    expect(cache.peek(family.id)).toBeUndefined();
  });
});
