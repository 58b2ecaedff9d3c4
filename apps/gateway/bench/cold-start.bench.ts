import { bench, describe } from "vitest";
import { startChannelFakes } from "./support/channel-fakes.js";
import { type ColdStartSample, measureColdStart } from "./support/cold-start.js";
import { type Figure, recordFigures } from "./support/results.js";
import { median, megabytes } from "./support/stats.js";

const RUNS = 5;
const MB = 1024 * 1024;

/** Five cold starts of one setup, printed and returned as median figures with their spread. */
async function coldStarts(label: string, config?: Record<string, unknown>): Promise<ColdStartSample[]> {
  const samples: ColdStartSample[] = [];
  for (let run = 0; run < RUNS; run++) samples.push(await measureColdStart(config ? { config } : {}));
  const ms = samples.map((s) => s.ms);
  const rss = samples.map((s) => s.rssBytes);
  const settled = samples.map((s) => s.settledRssBytes);
  console.log(
    `cold start, ${label}: median ${median(ms).toFixed(0)} ms to /healthz 200 (${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)}); ` +
      `RSS then ${megabytes(median(rss))}, 2 s after ready ${megabytes(median(settled))} ` +
      `(${megabytes(Math.min(...settled))}–${megabytes(Math.max(...settled))}; ${RUNS} runs)`,
  );
  return samples;
}

const figures = (samples: ColdStartSample[], targets: { ms?: string; rss?: string } = {}): Record<string, Figure> => {
  const ms = samples.map((s) => s.ms);
  const settled = samples.map((s) => s.settledRssBytes / MB);
  const rss = samples.map((s) => s.rssBytes / MB);
  return {
    readyMs: {
      value: median(ms),
      unit: "ms",
      range: [Math.min(...ms), Math.max(...ms)],
      what: "spawn → GET /healthz 200",
      ...(targets.ms ? { target: targets.ms } : {}),
    },
    rssAtReadyMB: { value: median(rss), unit: "MB", range: [Math.min(...rss), Math.max(...rss)] },
    rss2sAfterReadyMB: {
      value: median(settled),
      unit: "MB",
      range: [Math.min(...settled), Math.max(...settled)],
      ...(targets.rss ? { target: targets.rss } : {}),
    },
  };
};

// `chorus start --port 0` in a fresh home: the webchat only (no config: the demo agent), then one
// channel (Telegram) and five (Telegram, Discord, Slack, Nextcloud Talk, Signal) against their fakes.
const webchat = await coldStarts("webchat only (no config, demo agent)");
const one = await startChannelFakes(1);
const withOne = await coldStarts("1 channel (Telegram, fake)", one.config).finally(() => one.close());
const five = await startChannelFakes(5);
const withFive = await coldStarts(
  "5 channels (Telegram, Discord, Slack, Nextcloud, Signal; fakes)",
  five.config,
).finally(() => five.close());
recordFigures("cold-start", {
  ...prefixed("webchat.", figures(webchat, { ms: "≤ 250", rss: "≤ 60" })),
  ...prefixed("oneChannel.", figures(withOne)),
  ...prefixed("fiveChannels.", figures(withFive)),
});

function prefixed(prefix: string, list: Record<string, Figure>): Record<string, Figure> {
  return Object.fromEntries(Object.entries(list).map(([key, figure]) => [prefix + key, figure]));
}

describe("chorus start, no config, fresh home", () => {
  bench(
    "spawn `node dist/bin/chorus.js start --port 0` → GET /healthz 200",
    async () => {
      await measureColdStart({ settleMs: 0 });
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
