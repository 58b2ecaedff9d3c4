import { describe, expect, it } from "vitest";
import { CoalescedWriter } from "./coalesced-writer.js";

/** Waits (by turns of the event loop, never a fixed sleep) until `check` holds. */
async function waitFor(check: () => boolean, { timeoutMs }: { timeoutMs: number }): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A write function that records what it saw and can be held open. */
function recorder(state: { value: number }) {
  const written: number[] = [];
  let active = 0;
  let maxActive = 0;
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  let failNext: Error | undefined;
  return {
    written,
    get maxActive() {
      return maxActive;
    },
    hold() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release() {
      gate = undefined;
      open?.();
    },
    fail(error: Error) {
      failNext = error;
    },
    write: async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      try {
        const snapshot = state.value;
        if (gate) await gate;
        if (failNext) {
          const error = failNext;
          failNext = undefined;
          throw error;
        }
        written.push(snapshot);
      } finally {
        active--;
      }
    },
  };
}

describe("CoalescedWriter", () => {
  it("turns many changes in one tick into one write", async () => {
    const state = { value: 0 };
    const rec = recorder(state);
    const writer = new CoalescedWriter(rec.write, () => undefined);
    for (let i = 1; i <= 100; i++) {
      state.value = i;
      writer.changed();
    }
    await writer.flush();
    expect(rec.written).toEqual([100]);
    expect(writer.dirty).toBe(false);
  });

  it("writes in the background after the tick without a flush", async () => {
    const state = { value: 7 };
    const rec = recorder(state);
    const writer = new CoalescedWriter(rec.write, () => undefined);
    writer.changed();
    expect(rec.written).toEqual([]);
    await waitFor(() => rec.written.length === 1, { timeoutMs: 2000 });
    expect(rec.written).toEqual([7]);
    expect(writer.dirty).toBe(false);
  });

  it("never overlaps writes and writes changes made during a write afterwards", async () => {
    const state = { value: 1 };
    const rec = recorder(state);
    const writer = new CoalescedWriter(rec.write, () => undefined);
    rec.hold();
    writer.changed();
    const first = writer.flush();
    state.value = 2;
    writer.changed();
    state.value = 3;
    writer.changed();
    const second = writer.flush();
    rec.release();
    await Promise.all([first, second]);
    expect(rec.maxActive).toBe(1);
    expect(rec.written).toEqual([1, 3]);
  });

  it("flush resolves at once when nothing changed", async () => {
    const rec = recorder({ value: 0 });
    const writer = new CoalescedWriter(rec.write, () => undefined);
    await writer.flush();
    expect(rec.written).toEqual([]);
  });

  it("reports a failed background write, and flush retries and succeeds", async () => {
    const state = { value: 5 };
    const rec = recorder(state);
    const errors: unknown[] = [];
    const writer = new CoalescedWriter(rec.write, (error) => errors.push(error));
    rec.fail(new Error("disk full"));
    writer.changed();
    await waitFor(() => errors.length === 1, { timeoutMs: 2000 });
    expect(writer.dirty).toBe(true);
    await writer.flush();
    expect(rec.written).toEqual([5]);
    expect(writer.dirty).toBe(false);
  });

  it("flush rejects when its write fails", async () => {
    const rec = recorder({ value: 1 });
    const writer = new CoalescedWriter(rec.write, () => undefined);
    rec.fail(new Error("read-only file system"));
    writer.changed();
    await expect(writer.flush()).rejects.toThrow("read-only file system");
  });
});
