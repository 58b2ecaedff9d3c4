import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import JSON5 from "json5";
import { type OutputChunk, rolldown } from "rolldown";
import { describe, expect, it } from "vitest";
import { PAGE_SOURCES, pageBuildConfig } from "./page-build.test.util.js";

const GATEWAY = fileURLToPath(new URL("../../", import.meta.url));
const readJson5 = async (file: string) => JSON5.parse(await readFile(file, "utf8"));

/** The page's TypeScript modules (not its tests), relative to the gateway. */
async function pageModules(): Promise<string[]> {
  const names = await readdir(PAGE_SOURCES);
  return names
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => relative(GATEWAY, join(PAGE_SOURCES, name)))
    .sort();
}

describe("the webchat page's script", () => {
  it("is TypeScript under src/webchat/page/, type-checked as browser code and never as Node code", async () => {
    const page = await readJson5(join(GATEWAY, "tsconfig.page.json"));
    expect(page.include).toEqual(["src/webchat/page"]);
    expect(page.compilerOptions.lib).toEqual(["ES2022", "DOM"]);
    expect(page.compilerOptions.types).toEqual([]);
    expect((await readJson5(join(GATEWAY, "../../tsconfig.base.json"))).compilerOptions.strict).toBe(true);
    // `pnpm typecheck` (tsc -b at the root) and the gateway's own build check it.
    const root = await readJson5(join(GATEWAY, "../../tsconfig.json"));
    expect(root.references).toContainEqual({ path: "apps/gateway/tsconfig.page.json" });
    const scripts = (await readJson5(join(GATEWAY, "package.json"))).scripts;
    expect(scripts.build).toMatch(/^tsc -b \. tsconfig\.page\.json && rolldown /);
    // The Node build and the tests' type check leave it out.
    expect((await readJson5(join(GATEWAY, "tsconfig.json"))).exclude).toContain("src/webchat/page");
    expect((await readJson5(join(GATEWAY, "tsconfig.test.json"))).exclude).toContain("src/webchat/page");
    expect(await pageModules()).toEqual(expect.arrayContaining(["src/webchat/page/main.ts"]));
  });

  it("passes the type checker (strict, the DOM's types)", async () => {
    const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");
    const run = promisify(execFile)(process.execPath, [tsc, "-p", "tsconfig.page.json", "--pretty", "false"], {
      cwd: GATEWAY,
    });
    await expect(run).resolves.toMatchObject({ stdout: "" });
  }, 60_000);

  it("is bundled by rolldown into one ES2020 browser script from src/webchat/page/ alone", async () => {
    const config = await pageBuildConfig();
    expect(config.platform).toBe("browser");
    expect(config.transform?.target).toBe("es2020");
    expect(config.tsconfig).toBe(join(GATEWAY, "tsconfig.page.json"));
    const output = Array.isArray(config.output) ? config.output[0] : config.output;
    expect(output).toMatchObject({ dir: "dist/bin", format: "iife", entryFileNames: "[name].js" });
    const bundle = await rolldown(config);
    try {
      const { output: files } = await bundle.generate({ ...output, sourcemap: true });
      const chunks = files.filter((file): file is OutputChunk => file.type === "chunk");
      expect(chunks.map((chunk) => chunk.fileName)).toEqual(["webchat-page.js"]);
      const chunk = chunks[0] as OutputChunk;
      // Every module in it is one of the page's own (wire.ts holds types only, so none of it is left).
      const sources = (chunk.map?.sources ?? []).map((source) =>
        relative(GATEWAY, resolve(GATEWAY, "dist/bin", source)),
      );
      const modules = await pageModules();
      expect(sources.every((source) => modules.includes(source))).toBe(true);
      expect(modules.filter((module) => !sources.includes(module))).toEqual(["src/webchat/page/wire.ts"]);
      // One classic script: nothing left to import, nothing newer than ES2020.
      expect(chunk.code).not.toMatch(/^\s*(import|export)\b/m);
      expect(chunk.code).not.toMatch(/\?\?=|\|\|=|&&=|\bstatic\s*\{/);
    } finally {
      await bundle.close();
    }
  });
});
