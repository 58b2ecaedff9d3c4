import type { GatewayProcess } from "../../test/support/gateway-process.js";
import { processRss } from "./cold-start.js";
import { median } from "./stats.js";

/** One read of the gateway's memory, `atMs` after the sampling started. */
export interface MemorySample {
  atMs: number;
  rssBytes: number;
  /** `nodejs_heap_size_used_bytes` of its `/metrics`: the V8 heap in use, garbage not yet collected included. */
  heapUsedBytes: number;
}

/** The gateway's JS heap in use, from prom-client's default metrics on `GET /metrics` (bearer token). */
export async function heapUsedBytes(gateway: GatewayProcess): Promise<number> {
  const response = await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${gateway.token}` } });
  const body = await response.text();
  const match = /^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(body);
  if (response.status !== 200 || !match) {
    throw new Error(`GET /metrics answered ${response.status} without nodejs_heap_size_used_bytes`);
  }
  return Number(match[1]);
}

/** Reads the gateway's memory over and over until `stop()`. */
export interface MemorySampler {
  stop(): Promise<MemorySample[]>;
}

/** Reads the gateway's RSS (`/proc/<pid>/status`) and JS heap (`/metrics`) every `everyMs`, from now. */
export function sampleMemory(gateway: GatewayProcess, everyMs: number): MemorySampler {
  const samples: MemorySample[] = [];
  const from = performance.now();
  let running = true;
  const read = async () => {
    const atMs = performance.now() - from;
    const [rssBytes, heap] = await Promise.all([processRss(gateway.process.pid as number), heapUsedBytes(gateway)]);
    samples.push({ atMs, rssBytes, heapUsedBytes: heap });
  };
  const loop = (async () => {
    while (running) {
      const next = performance.now() + everyMs;
      await read();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await read();
      return samples;
    },
  };
}

/** RSS and heap at one moment of the run, in bytes. */
export interface MemoryPoint {
  rssBytes: number;
  heapBytes: number;
}

/**
 * The memory around `atMs`: the samples within `windowMs` of it (on the run's side at its start and
 * end), RSS as their median and the heap as their lowest read — the heap saws up between collections,
 * and its floor is what survived them.
 */
export function memoryAt(samples: readonly MemorySample[], atMs: number, windowMs: number): MemoryPoint {
  const near = samples.filter((s) => Math.abs(s.atMs - atMs) <= windowMs);
  if (near.length === 0) throw new Error(`no memory sample within ${windowMs} ms of ${atMs} ms`);
  return {
    rssBytes: median(near.map((s) => s.rssBytes)),
    heapBytes: Math.min(...near.map((s) => s.heapUsedBytes)),
  };
}

/** Memory at the start, the half and the end of a run of `durationMs`, and each half's growth. */
export interface Halves {
  start: MemoryPoint;
  half: MemoryPoint;
  end: MemoryPoint;
  halfMinutes: number;
}

/** Splits a run's samples into halves; each point looks `windowMs` around itself (see `memoryAt`). */
export function halvesOf(samples: readonly MemorySample[], durationMs: number, windowMs: number): Halves {
  return {
    start: memoryAt(samples, 0, windowMs),
    half: memoryAt(samples, durationMs / 2, windowMs),
    end: memoryAt(samples, durationMs, windowMs),
    halfMinutes: durationMs / 2 / 60_000,
  };
}
