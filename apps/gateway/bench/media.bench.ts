import { bench, describe } from "vitest";
import { measureFirstModelByte } from "./support/media-first-byte.js";
import { type MediaRssResult, measureMediaRss } from "./support/media-rss.js";
import { recordFigures } from "./support/results.js";
import { median, megabytes, percentile } from "./support/stats.js";

// Media (DESIGN §2.6) through the real `chorus start`: what a 40 MB file going in and out costs the
// gateway's RSS (streamed end to end, never held whole), and what a photo adds to the time before
// the model's request leaves, against a text turn. Cold start and idle RSS without media are the
// cold-start benchmark's (media code loads on first use; test/e2e/start-modules.test.ts checks it).

const MB = 1024 * 1024;
const LARGE = 40 * MB;
const RUNS = 15;
/** A 512×512 photo of random pixels: ~770 KB that do not compress, a phone photo's size. */
const PHOTO_SIDE = 512;

/** Prints one run's RSS figures (and live buffers, when tracked). */
function report(label: string, rss: MediaRssResult): void {
  const above = (bytes: number) => megabytes(bytes - rss.idleBytes);
  const steps = [
    ["upload (POST /v1/media)", rss.upload],
    ["send (to the memory platform)", rss.send],
    ["receive (an attachment through intake)", rss.receive],
  ] as const;
  const buffers =
    rss.idleBuffersBytes === undefined
      ? ""
      : `; live ArrayBuffers at most ${megabytes((rss.peakBuffersBytes ?? 0) - rss.idleBuffersBytes)} above idle ` +
        `(${steps.map(([name, s]) => `${name.split(" ")[0]} ${megabytes((s.peakBuffersBytes ?? 0) - (rss.idleBuffersBytes ?? 0))}`).join(", ")})`;
  console.log(
    `${label}: 40 MB ${steps.map(([name, s]) => `${name} ${s.ms.toFixed(0)} ms, RSS peak ${above(s.peakRssBytes)} above idle`).join("; ")}; ` +
      `idle ${megabytes(rss.idleBytes)} (before any medium ${megabytes(rss.coldIdleBytes)}), at rest after ${megabytes(rss.afterBytes)}${buffers}`,
  );
}

// As it runs: V8 frees the chunks a stream leaves behind (ArrayBuffers, outside its heap) only when
// their total nears its external-memory limit (~64 MB), so RSS counts garbage too. Then with a full
// GC every 50 ms, the gateway saying how much of its ArrayBuffers is alive: what it holds.
const rss = await measureMediaRss(LARGE);
report("as it runs", rss);
const live = await measureMediaRss(LARGE, { trackBuffers: true });
report("with a full GC every 50 ms", live);

const firstByte = await measureFirstModelByte(RUNS, PHOTO_SIDE);
const text = median(firstByte.textMs);
const photo = median(firstByte.photoMs);
console.log(
  `first model byte, direct chat (memory platform → gateway → fake model): text turn median ${text.toFixed(0)} ms ` +
    `(p90 ${percentile(firstByte.textMs, 0.9).toFixed(0)}), photo turn (${megabytes(firstByte.photoBytes)} PNG) ` +
    `median ${photo.toFixed(0)} ms (p90 ${percentile(firstByte.photoMs, 0.9).toFixed(0)}): +${(photo - text).toFixed(0)} ms ` +
    `for the download into the store and the image part (${RUNS} turns each, interleaved)`,
);

const range = (samples: number[]): [number, number] => [Math.min(...samples), Math.max(...samples)];
recordFigures("media", {
  large40MBPeakAboveIdleMB: {
    value: (rss.peakBytes - rss.idleBytes) / MB,
    unit: "MB",
    target: "< 16",
    what: "peak RSS above idle while 40 MB goes in (POST /v1/media), out (a send) and in (intake)",
  },
  large40MBLiveBuffersAboveIdleMB: {
    value: ((live.peakBuffersBytes ?? Number.NaN) - (live.idleBuffersBytes ?? 0)) / MB,
    unit: "MB",
    target: "< 16",
    what: "live ArrayBuffers above idle, the same way with a full GC every 50 ms: what the gateway holds",
  },
  large40MBPeakAboveIdleWithGcMB: {
    value: (live.peakBytes - live.idleBytes) / MB,
    unit: "MB",
    what: "peak RSS above idle in that run",
  },
  idleRssMB: { value: rss.idleBytes / MB, unit: "MB", what: "at rest, after a 64 KB medium went the same way" },
  coldIdleRssMB: { value: rss.coldIdleBytes / MB, unit: "MB", what: "at rest after the start, before any medium" },
  large40MBUploadMs: { value: rss.upload.ms, unit: "ms", what: "POST /v1/media of 40 MB, loopback" },
  large40MBSendMs: { value: rss.send.ms, unit: "ms", what: "POST /v1/tools/message of it to the memory platform" },
  large40MBReceiveMs: { value: rss.receive.ms, unit: "ms", what: "a 40 MB attachment: platform → store → answer" },
  firstByteTextMs: {
    value: text,
    unit: "ms",
    range: range(firstByte.textMs),
    what: "person's text → the model's request arrives",
  },
  firstBytePhotoMs: {
    value: photo,
    unit: "ms",
    range: range(firstByte.photoMs),
    what: "person's photo (~770 KB PNG) → the model's request, image part included, arrives",
  },
  firstBytePhotoExtraMs: { value: photo - text, unit: "ms", what: "photo turn − text turn, medians" },
});

describe("media", () => {
  bench(
    "figures above (the runs happen once, at load)",
    () => {
      if (firstByte.photoMs.length !== RUNS) throw new Error("not every photo turn was measured");
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
