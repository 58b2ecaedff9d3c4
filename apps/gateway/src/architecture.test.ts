import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * The shape of the gateway's source, checked: folders import each other in one direction only
 * (no cycle between two folders, type-only imports included), and no source file outgrows ~300
 * lines. A file directly in `src/` (`home.ts`) counts as a folder of its own.
 */

const SRC = dirname(fileURLToPath(import.meta.url));
const MAX_LINES = 300;
const isTest = (file: string) => /\.test(\.util)?\.ts$/.test(file) || file.endsWith(".bench.ts");

async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") && !isTest(entry.name)) files.push(path);
  }
  return files;
}

/** The top-level part of `src/` a file belongs to: its folder, or the file's own name. */
function partOf(file: string): string {
  const [first, ...rest] = relative(SRC, file).split(sep);
  return rest.length === 0 ? (first ?? "").replace(/\.[jt]s$/, "") : (first ?? "");
}

/** Every relative module a source imports or re-exports, static or dynamic, types included. */
export function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  const patterns = [
    /\b(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) if (match[1]?.startsWith(".")) specifiers.push(match[1]);
  }
  return specifiers;
}

/** Folder → the folders it imports from. */
async function folderGraph(): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  for (const file of await sourceFiles(SRC)) {
    const from = partOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const specifier of importsOf(await readFile(file, "utf8"))) {
      const to = partOf(resolve(dirname(file), specifier));
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

/** The groups of nodes that import one another, round and round (strongly connected, more than one node). */
export function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the gateway's folders", () => {
  it("import each other without a cycle", async () => {
    const graph = await folderGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(graph.get("runtime")).toContain("turn");
    expect(graph.get("sessions")).toEqual(new Set(["home", "state", "copy-with"]));
    expect(cycles(graph)).toEqual([]);
  });

  it("the check finds a cycle when there is one, type-only imports included", () => {
    const graph = new Map([
      ["config", new Set(["groups"])],
      ["groups", new Set(["config", "sessions"])],
      ["sessions", new Set<string>()],
      ["http", new Set(["runtime"])],
      ["runtime", new Set(["http", "groups"])],
    ]);
    expect(cycles(graph)).toEqual([
      ["config", "groups"],
      ["http", "runtime"],
    ]);
    const source = [
      'import type { MessageToolExecutor } from "../runtime/message-tool.js";',
      'import {\n  a,\n  b,\n} from "./b.js";',
      'export { c } from "../c/index.js";',
      'export * from "./d.js";',
      'const e = await import("../e/e.js");',
      'import { z } from "zod";',
    ].join("\n");
    expect(importsOf(source)).toEqual(["../runtime/message-tool.js", "./b.js", "../c/index.js", "./d.js", "../e/e.js"]);
  });
});

describe("the gateway's source files", () => {
  it(`stay under ${MAX_LINES} lines`, async () => {
    const long: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      const lines = (await readFile(file, "utf8")).split("\n").length - 1;
      if (lines > MAX_LINES) long.push(`${relative(SRC, file)}: ${lines} lines`);
    }
    expect(long).toEqual([]);
  });
});
