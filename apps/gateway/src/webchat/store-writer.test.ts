import { MemoryStore } from "@chorus/channel-kit/state";
import type { JsonValue } from "@chorus/core";
import { LogRecorder, waitFor } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { StoreWriter } from "./store-writer.js";

describe("StoreWriter", () => {
  it("writes each key once per burst, with its value at write time, and deletes what is gone", async () => {
    const store = new MemoryStore();
    await store.set("gone", 1);
    const writer = new StoreWriter(store, { logger: new LogRecorder().logger, delayMs: 5 });
    let n = 0;
    for (let i = 0; i < 50; i++) writer.schedule("count", () => ++n);
    writer.schedule("gone", () => undefined);
    expect(writer.pending).toBe(2);
    await writer.flush();
    expect(n).toBe(1);
    expect(await store.list("")).toEqual([{ key: "count", value: 1 }]);
  });

  it("writes what changed while it was writing, without another change or a flush", async () => {
    const store = new MemoryStore();
    let release: () => void = () => undefined;
    const slow = Object.assign(Object.create(store) as MemoryStore, {
      set: async (key: string, value: JsonValue) => {
        if (key === "first") await new Promise<void>((resolve) => (release = resolve));
        await store.set(key, value);
      },
    });
    const writer = new StoreWriter(slow, { logger: new LogRecorder().logger, delayMs: 1 });
    writer.schedule("first", () => 1);
    await waitFor(() => writer.pending === 0);
    writer.schedule("second", () => 2);
    release();
    await waitFor(async () => (await store.get("second")) === 2, { message: "the second key to be written" });
  });

  it("says so and goes on when the store refuses a value (too large)", async () => {
    const logs = new LogRecorder();
    const store = new MemoryStore();
    const writer = new StoreWriter(store, { logger: logs.logger });
    writer.schedule("huge", () => "x".repeat(70 * 1024));
    writer.schedule("small", () => "fits");
    await writer.flush();
    expect(await store.list("")).toEqual([{ key: "small", value: "fits" }]);
    expect(logs.at("warn").map((line) => [line.message, line.fields.key])).toEqual([
      ["webchat: the store refused an entry; it is not kept", "huge"],
    ]);
  });
});
