import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// Core is the contract every host and plugin shares: it must run wherever its code is bundled or
// run, so its runtime modules import no Node built-in (no file, network or process I/O) and read
// nothing relative to `import.meta.url`. Tests and benchmarks may.
const SOURCE = new URL("./", import.meta.url);
const runtimeModules = readdirSync(SOURCE, { recursive: true, encoding: "utf8" }).filter(
  (path) => path.endsWith(".ts") && !/\.(test|bench)\.ts$|\.test-util\.ts$/.test(path),
);
const NODE_IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)["'](?:node:|fs["'/]|path["'/]|os["'/]|child_process)/;

describe("core's runtime modules", () => {
  it("are found (the scan reads the source tree)", () => {
    expect(runtimeModules).toContain("index.ts");
    expect(runtimeModules).toContain("emoji/data.ts");
  });

  it.each(runtimeModules)("%s imports no Node built-in and reads nothing beside itself", (path) => {
    const source = readFileSync(new URL(path, SOURCE), "utf8");
    expect(source).not.toMatch(NODE_IMPORT);
    expect(source).not.toContain("import.meta.url");
  });
});
