import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// The built module (the test command builds before it tests), run in a process of its own with
// V8's GC trace: each scavenge's line ends with its reason.
const BUILT = pathToFileURL(fileURLToPath(new URL("../../dist/runtime/young-generation.js", import.meta.url))).href;

function scavengeReasons(setFirst: boolean): string[] {
  const script = `
    ${setFirst ? `(await import(${JSON.stringify(BUILT)})).collectYoungGenerationWhenFull();` : ""}
    const kept = [];
    for (let round = 0; round < 300; round++) {
      for (let i = 0; i < 20000; i++) kept[i % 100] = { round, i, text: "x" + i };
      await new Promise((resolve) => setImmediate(resolve));
    }`;
  const trace = execFileSync(process.execPath, ["--trace-gc", "--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  return [...trace.matchAll(/Scavenge .*\) ([a-z ]+); *$/gm)].map((match) => match[1] as string);
}

describe("collectYoungGenerationWhenFull", () => {
  it("leaves the scavenges to the allocation that fills the young generation, none in a posted task", () => {
    // Without it, V8 posts a task at 80% and the event loop's turns run it.
    expect(scavengeReasons(false)).toContain("task");
    const reasons = scavengeReasons(true);
    expect(reasons.length).toBeGreaterThan(3);
    expect(new Set(reasons)).toEqual(new Set(["allocation failure"]));
  });
});
