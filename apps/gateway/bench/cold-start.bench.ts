import { afterAll, bench, describe } from "vitest";
import { type ColdStartSample, measureColdStart } from "./support/cold-start.js";
import { median, megabytes } from "./support/stats.js";

const RUNS = 5;
const samples: ColdStartSample[] = [];

afterAll(() => {
  if (samples.length === 0) return;
  const ms = samples.map((s) => s.ms);
  const rss = samples.map((s) => s.rssBytes);
  console.log(
    `cold start: median ${median(ms).toFixed(0)} ms, RSS ${megabytes(median(rss))} (${samples.length} runs; ` +
      `${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)} ms, ${megabytes(Math.min(...rss))}–${megabytes(Math.max(...rss))})`,
  );
});

describe("chorus start, no config, fresh home", () => {
  bench(
    "spawn `node dist/cli/main.js start --port 0` → GET /healthz 200",
    async () => {
      samples.push(await measureColdStart());
    },
    { iterations: RUNS, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
