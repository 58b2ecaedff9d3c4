import { constants, monitorEventLoopDelay, type PerformanceEntry, PerformanceObserver } from "node:perf_hooks";

/** What a stretch of work cost the process, beside its wall-clock time (steadier on a shared machine). */
export interface ProcessCost {
  /** User + system CPU time of the whole process, in microseconds. */
  cpuUs: number;
  /** Garbage collections, and their total pause in ms. */
  gcCount: number;
  gcMs: number;
  /** Of those, the full (mark-compact) collections and their pause in ms. */
  majorGcCount: number;
  majorGcMs: number;
  /** Every GC pause: when it started (`performance.now()`) and how long it lasted, in ms. */
  gcPauses: [startMs: number, durationMs: number][];
  /** The longest the event loop was blocked, in ms (1 ms resolution). */
  maxBlockMs: number;
}

/** Runs `work` and says what it cost the process (CPU, GC pauses, the longest event-loop block). */
export async function measureCost<T>(work: () => Promise<T>): Promise<{ value: T; cost: ProcessCost }> {
  let gcCount = 0;
  let gcMs = 0;
  let majorGcCount = 0;
  let majorGcMs = 0;
  const gcPauses: [number, number][] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcCount++;
      gcMs += entry.duration;
      gcPauses.push([entry.startTime, entry.duration]);
      const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
      if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        majorGcCount++;
        majorGcMs += entry.duration;
      }
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  const value = await work();
  const cpu = process.cpuUsage(cpuBefore);
  delay.disable();
  // GC entries are delivered asynchronously: let the last ones arrive.
  await new Promise((resolve) => setImmediate(resolve));
  observer.disconnect();
  return {
    value,
    cost: {
      cpuUs: cpu.user + cpu.system,
      gcCount,
      gcMs,
      majorGcCount,
      majorGcMs,
      gcPauses,
      maxBlockMs: delay.max / 1e6,
    },
  };
}
