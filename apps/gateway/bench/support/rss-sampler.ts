import { processRss } from "./cold-start.js";

/** A process's resident set size read over and over while something runs: its peak, and how often it was read. */
export interface RssSampler {
  /** Stops reading; resolves with the peak seen (bytes) and the number of reads. */
  stop(): Promise<{ peakBytes: number; samples: number }>;
}

/** Reads VmRSS of `pid` every `everyMs` (default 5 ms) until `stop()`. */
export function sampleRss(pid: number, everyMs = 5): RssSampler {
  let peakBytes = 0;
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      peakBytes = Math.max(peakBytes, await processRss(pid));
      samples += 1;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      peakBytes = Math.max(peakBytes, await processRss(pid));
      return { peakBytes, samples: samples + 1 };
    },
  };
}

/** The median of `count` reads of VmRSS, `everyMs` apart: a process's RSS at rest. */
export async function restingRss(pid: number, count = 5, everyMs = 200): Promise<number> {
  const reads: number[] = [];
  for (let i = 0; i < count; i++) {
    reads.push(await processRss(pid));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return reads.sort((a, b) => a - b)[Math.floor(count / 2)] as number;
}
