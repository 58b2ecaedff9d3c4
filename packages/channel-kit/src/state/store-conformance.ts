import { type ChannelStore, ChorusError, MAX_STORE_VALUE_BYTES } from "@chorus/core";

/** One behaviour every `ChannelStore` must have; `run` throws when the store breaks it. */
export interface StoreConformanceCase {
  name: string;
  run(store: ChannelStore, clock: { advance(ms: number): void }): Promise<void>;
}

function expectEqual(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const b = JSON.stringify(expected);
  if (a !== b) throw new Error(`${what}: expected ${b}, got ${a}`);
}

async function expectInvalid(action: () => Promise<unknown>, what: string): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (error instanceof ChorusError && error.code === "E_INVALID_INPUT") return;
    throw new Error(`${what}: expected E_INVALID_INPUT, got ${String(error)}`);
  }
  throw new Error(`${what}: expected E_INVALID_INPUT, it succeeded`);
}

/**
 * What a host's `ChannelStore` must do (DESIGN §3), as cases any implementation can run: the
 * gateway's backends and testkit's stores all pass them. `clock.advance` moves the store's clock.
 */
export const STORE_CONFORMANCE_CASES: readonly StoreConformanceCase[] = [
  {
    name: "set then get returns an equal copy, never the caller's object",
    async run(store) {
      const value = { emoji: ["👍"], n: 1, nested: { ok: true, none: null } };
      await store.set("a/1", value);
      value.emoji.push("changed after set");
      const read = await store.get<typeof value>("a/1");
      expectEqual(read, { emoji: ["👍"], n: 1, nested: { ok: true, none: null } }, "get after set");
      read?.emoji.push("changed after get");
      expectEqual(await store.get("a/1"), { emoji: ["👍"], n: 1, nested: { ok: true, none: null } }, "get again");
    },
  },
  {
    name: "a missing key reads as undefined and deleting it says false",
    async run(store) {
      expectEqual(await store.get("missing/key"), undefined, "get of a missing key");
      expectEqual(await store.delete("missing/key"), false, "delete of a missing key");
    },
  },
  {
    name: "delete removes the key and says it existed",
    async run(store) {
      await store.set("d/1", "x");
      expectEqual(await store.delete("d/1"), true, "delete of a present key");
      expectEqual(await store.get("d/1"), undefined, "get after delete");
    },
  },
  {
    name: "list returns the entries under a prefix in key order, across groups",
    async run(store) {
      await store.set("l/b", 2);
      await store.set("l/a", 1);
      await store.set("lx/c", 3);
      await store.set("other/z", 9);
      expectEqual(
        await store.list("l/"),
        [
          { key: "l/a", value: 1 },
          { key: "l/b", value: 2 },
        ],
        "list l/",
      );
      expectEqual(
        (await store.list("l")).map((e) => e.key),
        ["l/a", "l/b", "lx/c"],
        "list l",
      );
    },
  },
  {
    name: "update is atomic: concurrent updates of one key all count",
    async run(store) {
      await Promise.all(Array.from({ length: 25 }, () => store.update<number>("u/count", (n) => (n ?? 0) + 1)));
      expectEqual(await store.get("u/count"), 25, "after 25 concurrent increments");
    },
  },
  {
    name: "update returning undefined deletes, and resolves with the value written",
    async run(store) {
      expectEqual(await store.update<string[]>("u/list", () => ["a"]), ["a"], "update result");
      expectEqual(await store.update("u/list", () => undefined), undefined, "deleting update result");
      expectEqual(await store.get("u/list"), undefined, "get after a deleting update");
    },
  },
  {
    name: "an entry with ttlMs is gone once it expired",
    async run(store, clock) {
      await store.set("t/short", 1, { ttlMs: 1_000 });
      await store.set("t/forever", 2);
      clock.advance(999);
      expectEqual(await store.get("t/short"), 1, "before expiry");
      clock.advance(2);
      expectEqual(await store.get("t/short"), undefined, "after expiry");
      expectEqual(
        (await store.list("t/")).map((e) => e.key),
        ["t/forever"],
        "list after expiry",
      );
    },
  },
  {
    name: "bad keys and values are refused with E_INVALID_INPUT",
    async run(store) {
      await expectInvalid(() => store.set("", 1), "an empty key");
      await expectInvalid(() => store.set("x".repeat(513), 1), "a 513-character key");
      await expectInvalid(() => store.set("bad\nkey", 1), "a key with a newline");
      await expectInvalid(() => store.set("v/nan", Number.NaN), "NaN");
      await expectInvalid(() => store.set("v/big", "x".repeat(MAX_STORE_VALUE_BYTES)), "a value over 64 KiB");
      await expectInvalid(() => store.set("v/ttl", 1, { ttlMs: 0 }), "ttlMs 0");
    },
  },
];
