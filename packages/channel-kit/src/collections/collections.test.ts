import { describe, expect, it } from "vitest";
import { BoundedMap, BoundedSet } from "./bounded.js";
import { CachedLookup } from "./cached-lookup.js";
import { KeyedQueue } from "./keyed-queue.js";

describe("BoundedMap", () => {
  it("drops the least recently used entry beyond its capacity; get refreshes, peek does not", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1).set("b", 2);
    expect(map.get("a")).toBe(1);
    map.set("c", 3);
    expect([...map.entries()]).toEqual([
      ["a", 1],
      ["c", 3],
    ]);
    expect(map.peek("a")).toBe(1);
    map.set("d", 4);
    expect(map.has("a")).toBe(false);
  });

  it("refuses a capacity that is not a positive integer", () => {
    expect(() => new BoundedMap(0)).toThrow("BoundedMap capacity must be a positive integer, got 0");
  });
});

describe("BoundedSet", () => {
  it("says whether a member is new and forgets the oldest beyond its capacity", () => {
    const set = new BoundedSet<string>(2);
    expect(set.add("a")).toBe(true);
    expect(set.add("a")).toBe(false);
    set.add("b");
    set.add("c");
    expect([set.has("a"), set.has("b"), set.has("c"), set.size]).toEqual([false, true, true, 2]);
  });
});

describe("KeyedQueue", () => {
  it("runs tasks of one key in order, other keys alongside, and survives a failed task", async () => {
    const queue = new KeyedQueue();
    const order: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = queue.run("a", async () => {
      await gate;
      order.push("a1");
    });
    const failing = queue.run("a", async () => {
      order.push("a2");
      throw new Error("boom");
    });
    const third = queue.run("a", async () => order.push("a3"));
    await queue.run("b", async () => order.push("b1"));
    expect(order).toEqual(["b1"]);
    release();
    await first;
    await expect(failing).rejects.toThrow("boom");
    await third;
    expect(order).toEqual(["b1", "a1", "a2", "a3"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.size).toBe(0);
  });
});

describe("CachedLookup", () => {
  it("shares one request per key, serves it for ttlMs, and does not keep failures", async () => {
    let now = 0;
    const calls: string[] = [];
    let fail = false;
    const lookup = new CachedLookup<string>({
      ttlMs: 1_000,
      now: () => now,
      load: async (key) => {
        calls.push(key);
        if (fail) throw new Error("platform down");
        return `name of ${key}`;
      },
    });
    expect(await Promise.all([lookup.get("u1"), lookup.get("u1")])).toEqual(["name of u1", "name of u1"]);
    expect(calls).toEqual(["u1"]);
    now = 999;
    await lookup.get("u1");
    expect(calls).toEqual(["u1"]);
    now = 1_000;
    fail = true;
    await expect(lookup.get("u1")).rejects.toThrow("platform down");
    fail = false;
    expect(await lookup.get("u1")).toBe("name of u1");
    expect(calls).toEqual(["u1", "u1", "u1"]);
    lookup.invalidate("u1");
    await lookup.get("u1");
    expect(calls).toHaveLength(4);
  });
});
