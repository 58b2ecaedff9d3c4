import { getEventListeners } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { anySignal, dependantCount } from "./any-signal.js";

/** V8's full collection, taken from a context made while `--expose-gc` was on. */
function fullGc(): () => void {
  setFlagsFromString("--expose-gc");
  try {
    return runInNewContext("gc") as () => void;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
}

describe("anySignal: AbortSignal.any without a dependant left behind on a long-lived source", () => {
  it("aborts with the reason of the first source that aborts, once", () => {
    const first = new AbortController();
    const second = new AbortController();
    const linked = anySignal([first.signal, second.signal]);
    let heard = 0;
    linked.addEventListener("abort", () => heard++);
    expect(linked.aborted).toBe(false);
    second.abort(new Error("second"));
    first.abort(new Error("first"));
    expect(linked.aborted).toBe(true);
    expect((linked.reason as Error).message).toBe("second");
    expect(heard).toBe(1);
    // Aborted, it no longer depends on the source that did not abort.
    expect(dependantCount(first.signal)).toBe(0);
  });

  it("is aborted at once when a source already is", () => {
    const done = new AbortController();
    done.abort(new Error("gone"));
    const linked = anySignal([new AbortController().signal, done.signal]);
    expect(linked.aborted).toBe(true);
    expect((linked.reason as Error).message).toBe("gone");
  });

  it("follows a timeout", async () => {
    const lifetime = new AbortController();
    const linked = anySignal([lifetime.signal, AbortSignal.timeout(10)]);
    await new Promise<void>((resolve) => linked.addEventListener("abort", () => resolve(), { once: true }));
    expect((linked.reason as Error).name).toBe("TimeoutError");
    expect(lifetime.signal.aborted).toBe(false);
  });

  it("a source aborting reaches every signal linked to it", () => {
    const lifetime = new AbortController();
    const linked = Array.from({ length: 50 }, () => anySignal([lifetime.signal, new AbortController().signal]));
    lifetime.abort(new Error("stopping"));
    expect(linked.every((signal) => signal.aborted && (signal.reason as Error).message === "stopping")).toBe(true);
    expect(dependantCount(lifetime.signal)).toBe(0);
  });

  it("a long-lived source keeps one listener at most, and nothing of the signals collected since", async () => {
    const lifetime = new AbortController();
    const keep = anySignal([lifetime.signal, new AbortController().signal]);
    const timeouts: AbortSignal[] = [];
    for (let i = 0; i < 20_000; i++) {
      const timeout = AbortSignal.timeout(60_000);
      if (i % 1000 === 0) timeouts.push(timeout);
      anySignal([lifetime.signal, timeout]);
    }
    expect(getEventListeners(lifetime.signal, "abort")).toHaveLength(1);
    expect(dependantCount(lifetime.signal)).toBeGreaterThan(1);
    const gc = fullGc();
    // Collected signals leave as their finalizers run (tasks after a collection).
    for (let round = 0; round < 50 && dependantCount(lifetime.signal) > 1; round++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(dependantCount(lifetime.signal)).toBe(1);
    expect(getEventListeners(lifetime.signal, "abort")).toHaveLength(1);
    // A timeout whose linked signal is gone has no listener left (one would keep it until it fires).
    for (const timeout of timeouts) {
      expect(dependantCount(timeout)).toBe(0);
      expect(getEventListeners(timeout, "abort")).toHaveLength(0);
    }
    lifetime.abort(new Error("stopping"));
    expect(keep.aborted).toBe(true);
    expect(getEventListeners(lifetime.signal, "abort")).toHaveLength(0);
  });
});

/** The TypeScript sources (tests left out) of every first-party package and app. */
function firstPartySources(): string[] {
  const root = fileURLToPath(new URL("../../../../", import.meta.url));
  const files: string[] = [];
  for (const group of ["packages", "apps"]) {
    for (const name of readdirSync(join(root, group))) {
      const src = join(root, group, name, "src");
      const walk = (dir: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) walk(path);
          else if (/\.ts$/.test(entry.name) && !/\.test(-util)?\.ts$|\.test\./.test(entry.name)) files.push(path);
        }
      };
      try {
        walk(src);
      } catch {
        // A package without src/.
      }
    }
  }
  return files;
}

describe("first-party code links signals with anySignal", () => {
  it("no source outside tests calls AbortSignal.any (it leaks on Node 20 and 22)", () => {
    const sources = firstPartySources();
    expect(sources.length).toBeGreaterThan(100);
    const calling = sources.filter((file) => /AbortSignal\.any\(/.test(readFileSync(file, "utf8")));
    expect(calling).toEqual([]);
  });
});
