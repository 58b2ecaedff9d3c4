import { constants, PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { type Collect, exposedCollect, YoungGarbage } from "./young-garbage.js";

const MiB = 1024 * 1024;

describe("young garbage: a scavenge after every few MiB of media streamed", () => {
  it("collects once each time the bytes streamed reach the step, then counts again from zero", () => {
    const calls: { type: string }[] = [];
    const garbage = new YoungGarbage(() => (options) => calls.push(options), 2 * MiB);
    garbage.streamed(MiB);
    garbage.streamed(MiB - 1);
    expect(calls).toEqual([]);
    garbage.streamed(1);
    expect(calls).toEqual([{ type: "minor" }]);
    garbage.streamed(3 * MiB);
    expect(calls).toHaveLength(2);
    garbage.streamed(MiB);
    expect(calls).toHaveLength(2);
  });

  it("streams on without collecting where the runtime gives no collection function", () => {
    const garbage = new YoungGarbage(() => undefined, 1);
    expect(() => garbage.streamed(10)).not.toThrow();
  });

  it("the exposed collection is a real scavenge, and the global scope gets no gc", async () => {
    const hadGc = "gc" in globalThis;
    const collect = exposedCollect() as Collect;
    expect(typeof collect).toBe("function");
    expect("gc" in globalThis).toBe(hadGc);
    const minor = new Promise<void>((resolve) => {
      const observer = new PerformanceObserver((list) => {
        // A "gc" entry's detail says which collection it was (Node's own field, not in the DOM type).
        const kinds = list.getEntries().map((entry) => (entry as { detail?: { kind?: number } }).detail?.kind);
        if (kinds.includes(constants.NODE_PERFORMANCE_GC_MINOR)) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe({ entryTypes: ["gc"] });
    });
    collect({ type: "minor" });
    await minor;
  });
});
