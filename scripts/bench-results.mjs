#!/usr/bin/env node
// Merges what `turbo run bench` left in bench/results/ into bench/results.json: the figures each
// benchmark recorded (gateway.<name>.json) and vitest's own per-bench statistics (<pkg>.vitest.json),
// with the machine they were measured on, so one run can be compared with the next (git diff).
// `--clean` removes bench/results/ (run before the benchmarks).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, freemem, loadavg, totalmem } from "node:os";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dir = `${root}bench/results/`;
if (process.argv.includes("--clean")) {
  // Before a run: no figure of an earlier run may be taken for one of this run.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const run = { startedAt: new Date().toISOString(), loadAverage1m: round(loadavg()[0]), cpuTicks: cpuTicks() };
  writeFileSync(`${dir}run.json`, `${JSON.stringify(run)}\n`);
  process.exit(0);
}
if (!existsSync(dir)) throw new Error(`${dir} does not exist: run the benchmarks first (pnpm bench)`);
const figures = {};
const vitest = {};
const run = existsSync(`${dir}run.json`) ? JSON.parse(readFileSync(`${dir}run.json`, "utf8")) : {};
for (const file of readdirSync(dir).sort()) {
  if (file === "run.json") continue;
  const data = JSON.parse(readFileSync(dir + file, "utf8"));
  const vitestMatch = /^(.+)\.vitest\.json$/.exec(file);
  if (vitestMatch) {
    for (const benchFile of data.files ?? []) {
      for (const group of benchFile.groups ?? []) {
        for (const b of group.benchmarks ?? []) {
          vitest[`${vitestMatch[1]}: ${group.fullName} > ${b.name}`] = {
            hz: round(b.hz),
            meanMs: round(b.mean),
            p99Ms: round(b.p99),
            samples: b.sampleCount ?? b.samples?.length,
          };
        }
      }
    }
    continue;
  }
  const figuresMatch = /^(.+)\.json$/.exec(file);
  if (figuresMatch) figures[figuresMatch[1]] = data;
}
if (Object.keys(figures).length === 0) throw new Error(`no benchmark recorded figures in ${dir}`);
let commit = "unknown";
try {
  commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
} catch {}
const cpu = cpus();
const results = {
  startedAt: run.startedAt,
  measuredAt: new Date().toISOString(),
  commit,
  machine: {
    cpu: cpu[0]?.model ?? "unknown",
    cores: cpu.length,
    memoryGB: Math.round(totalmem() / 1024 ** 3),
    freeMemoryGB: Math.round(freemem() / 1024 ** 3),
    // The 1-minute load average when the run started and when it ended: other work on a shared
    // machine moves every timing figure, so a run is compared with one made under a similar load.
    loadAverage1mAtStart: run.loadAverage1m,
    loadAverage1mAtEnd: round(loadavg()[0]),
    // On a virtual machine the host can take CPU time from it (steal): the share of the run's CPU
    // time taken so, from /proc/stat (Linux only). Timings of runs with a high steal are not comparable.
    cpuStealPercent: stealPercent(run.cpuTicks, cpuTicks()),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  },
  figures,
  vitest,
};
writeFileSync(`${root}bench/results.json`, `${JSON.stringify(results, null, 2)}\n`);
const missed = [];
for (const [bench, list] of Object.entries(figures)) {
  for (const [name, f] of Object.entries(list)) {
    const target = /^([≤≥<>])\s*([\d.]+)$/.exec(f.target ?? "");
    if (!target) continue;
    const limit = Number(target[2]);
    const ok =
      target[1] === "≤"
        ? f.value <= limit
        : target[1] === "<"
          ? f.value < limit
          : target[1] === "≥"
            ? f.value >= limit
            : f.value > limit;
    if (!ok) missed.push(`${bench}.${name}: ${f.value} ${f.unit}, target ${f.target}`);
  }
}
console.log(
  `bench/results.json: ${Object.keys(figures).length} benchmarks, ${Object.keys(vitest).length} vitest benches`,
);
if (missed.length > 0) console.log(`targets not met (figures, not failures):\n  ${missed.join("\n  ")}`);

function round(value) {
  if (typeof value !== "number" || !Number.isFinite(value) || value === 0) return value;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value))));
  return Number(value.toFixed(Math.min(digits, 4)));
}

/** All CPUs' time so far and the part of it stolen by the host, in ticks (Linux), else undefined. */
function cpuTicks() {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    return { total: fields.reduce((sum, n) => sum + n, 0), steal: fields[7] ?? 0 };
  } catch {
    return undefined;
  }
}

function stealPercent(before, after) {
  if (!before || !after || after.total <= before.total) return undefined;
  return round((100 * (after.steal - before.steal)) / (after.total - before.total));
}
