#!/usr/bin/env node
// Interleaved A/B of the webchat-only cold start of two gateway builds:
//
//   node apps/gateway/bench/support/compare-cold-start.mjs <dirA> <dirB> [spawnsEach]
//
// Each dir is a checkout's root or its apps/gateway, built. Each build's `chorus` bin (from its own
// package.json `bin`, as a user's install runs it: `node <bin>`) is started with `start --port 0`
// in a fresh CHORUS_HOME without a config (webchat + demo agent), interleaved (A, B, B, A, …) so both
// see the same machine state. Per spawn: wall time spawn → first GET /healthz 200, the process's
// CPU time (utime + stime of /proc/<pid>/stat) and RSS at that moment, and RSS 2 s later.
// Prints medians, ranges and means per build (CPU time counts in 10 ms ticks: its mean over many
// spawns says more than its median), and the load average before and after.
//
// NODE_FLAGS_A / NODE_FLAGS_B (space-separated) start that build's node with those flags: the same
// build twice with and without a flag (`NODE_FLAGS_B=--max-semi-space-size=32 … . .`) times the flag.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ (`getconf CLK_TCK`)
const SETTLE_MS = 2_000;
const TIMEOUT_MS = 20_000;

/** The `chorus` bin of the gateway in `dir` (a checkout's root or its apps/gateway). */
function chorusBin(dir) {
  const gateway = existsSync(join(dir, "apps/gateway/package.json")) ? join(dir, "apps/gateway") : dir;
  const manifest = JSON.parse(readFileSync(join(gateway, "package.json"), "utf8"));
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.chorus;
  if (manifest.name !== "@chorus/gateway" || !bin) {
    throw new Error(`${gateway}/package.json is not @chorus/gateway's with a \`chorus\` bin`);
  }
  const path = resolve(gateway, bin);
  if (!existsSync(path)) throw new Error(`${path} does not exist: build ${gateway} first`);
  return path;
}

async function cpuMs(pid) {
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15 of the line.
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

async function rssMB(pid) {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(await readFile(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`/proc/${pid}/status has no VmRSS line (is this Linux?)`);
  return Number(match[1]) / 1024;
}

/** One cold start of `node <flags> <bin> start --port 0` in a fresh home without a config. */
async function coldStart(bin, flags) {
  const home = await mkdtemp(join(tmpdir(), "chorus-compare-cold-"));
  const started = performance.now();
  const child = spawn(process.execPath, [...flags, bin, "start", "--port", "0"], {
    env: { ...process.env, CHORUS_HOME: home, CHORUS_CONFIG: "", NO_PROXY: "127.0.0.1,localhost" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise((resolveExit) => child.once("exit", resolveExit));
  let output = "";
  try {
    const url = await new Promise((resolveUrl, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "listening on" in ${TIMEOUT_MS} ms:\n${output}`)),
        TIMEOUT_MS,
      );
      const onData = (chunk) => {
        output += chunk;
        const match = /listening on (\S+)/.exec(output);
        if (!match) return;
        clearTimeout(timer);
        resolveUrl(match[1]);
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`${bin} exited with ${code} before listening:\n${output}`));
      });
    });
    for (;;) {
      const response = await fetch(`${url}/healthz`);
      await response.body?.cancel();
      if (response.status === 200) break;
      if (performance.now() - started > TIMEOUT_MS)
        throw new Error(`/healthz answered ${response.status} for too long`);
    }
    const ms = performance.now() - started;
    const [cpu, rss] = await Promise.all([cpuMs(child.pid), rssMB(child.pid)]);
    await new Promise((resolveSettled) => setTimeout(resolveSettled, SETTLE_MS));
    if (child.exitCode !== null) throw new Error(`${bin} exited with ${child.exitCode} after ready:\n${output}`);
    return { ms, cpuMs: cpu, rssMB: rss, settledRssMB: await rssMB(child.pid) };
  } finally {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    await rm(home, { recursive: true, force: true });
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function summary(label, samples) {
  const figure = (key, digits) => {
    const values = samples.map((sample) => sample[key]);
    const f = (value) => value.toFixed(digits);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    return `${f(median(values))} (${f(Math.min(...values))}–${f(Math.max(...values))}; mean ${f(mean)})`;
  };
  return (
    `${label}: ready ${figure("ms", 0)} ms, CPU at ready ${figure("cpuMs", 0)} ms, ` +
    `RSS at ready ${figure("rssMB", 1)} MB, 2 s after ${figure("settledRssMB", 1)} MB`
  );
}

const [dirA, dirB, spawnsArgument = "15"] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error("usage: compare-cold-start.mjs <dirA> <dirB> [spawnsEach, default 15]");
  process.exit(2);
}
const spawns = Number(spawnsArgument);
if (!Number.isInteger(spawns) || spawns < 1)
  throw new Error(`spawnsEach must be a positive integer, not ${spawnsArgument}`);
const flagsOf = (name) => (process.env[name] ?? "").split(" ").filter(Boolean);
const builds = [
  { label: "A", bin: chorusBin(resolve(dirA)), flags: flagsOf("NODE_FLAGS_A"), samples: [] },
  { label: "B", bin: chorusBin(resolve(dirB)), flags: flagsOf("NODE_FLAGS_B"), samples: [] },
];
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
const loadBefore = load();
for (const build of builds) await coldStart(build.bin, build.flags); // one unmeasured start each: the file cache warm for both
for (let round = 0; round < spawns; round++) {
  // A, B then B, A: neither build always runs right after the other.
  for (const build of round % 2 ? [...builds].reverse() : builds)
    build.samples.push(await coldStart(build.bin, build.flags));
}
for (const build of builds) console.log(`${build.label} = node ${[...build.flags, build.bin].join(" ")}`);
for (const build of builds) console.log(summary(`${build.label} (${spawns} spawns)`, build.samples));
console.log(
  `load average before ${loadBefore}, after ${load()} (1, 5, 15 min; ${availableParallelism()} cores); median (min–max; mean)`,
);
