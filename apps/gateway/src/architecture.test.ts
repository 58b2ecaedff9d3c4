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

/** One relative import of a source: its specifier, and whether it is a dynamic `import()` (a lazily loaded chunk). */
interface Import {
  specifier: string;
  dynamic: boolean;
}

/** Every relative module a source imports or re-exports, static or dynamic, types included. */
export function importsOf(source: string): string[] {
  return importsWithKind(source).map((i) => i.specifier);
}

function importsWithKind(source: string): Import[] {
  const found: (Import & { at: number })[] = [];
  for (const match of source.matchAll(/\b(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']/g))
    if (match[1]?.startsWith(".")) found.push({ specifier: match[1], dynamic: false, at: match.index });
  for (const match of source.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g))
    if (match[1]?.startsWith(".")) found.push({ specifier: match[1], dynamic: true, at: match.index });
  return found.sort((a, b) => a.at - b.at).map(({ specifier, dynamic }) => ({ specifier, dynamic }));
}

/** The source file a relative specifier names. */
function targetOf(file: string, specifier: string): string {
  return resolve(dirname(file), specifier).replace(/\.js$/, ".ts");
}

/** Every source file with its imports. */
async function sources(): Promise<{ file: string; imports: Import[] }[]> {
  return Promise.all(
    (await sourceFiles(SRC)).map(async (file) => ({ file, imports: importsWithKind(await readFile(file, "utf8")) })),
  );
}

/** Folder → the folders it imports from. */
async function folderGraph(): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  for (const { file, imports } of await sources()) {
    const from = partOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const { specifier } of imports) {
      const to = partOf(targetOf(file, specifier));
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

/** File → the files it imports statically (type-only imports included; lazy `import()`s are not edges of a load-time cycle). */
async function fileGraph(): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  for (const { file, imports } of await sources()) {
    const edges = new Set<string>();
    for (const { specifier, dynamic } of imports) if (!dynamic) edges.add(relative(SRC, targetOf(file, specifier)));
    graph.set(relative(SRC, file), edges);
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
    expect(graph.get("runtime")).toContain("pipeline");
    expect(graph.get("pipeline")).toContain("turn");
    expect(graph.get("turn")).not.toContain("pipeline");
    expect(graph.get("sessions")).toEqual(new Set(["support", "state"]));
    expect(cycles(graph)).toEqual([]);
  });

  it("have files that import each other without a cycle, type-only imports included", async () => {
    expect(cycles(await fileGraph())).toEqual([]);
  });

  it("are entered through their index.ts: a static import from another folder names its barrel", async () => {
    const deep: string[] = [];
    for (const { file, imports } of await sources()) {
      for (const { specifier, dynamic } of imports) {
        const target = targetOf(file, specifier);
        // A lazily loaded module is imported where it is needed (its own chunk), barrel or not.
        if (dynamic || partOf(target) === partOf(file) || relative(SRC, target).split(sep).length === 1) continue;
        if (!target.endsWith(`${sep}index.ts`)) deep.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
      }
    }
    expect(deep).toEqual([]);
  });

  it("each say in their index.ts's first lines what they own; no loose files beside them", async () => {
    const entries = await readdir(SRC, { withFileTypes: true });
    const loose = entries
      .filter((e) => e.isFile() && e.name.endsWith(".ts") && !isTest(e.name) && e.name !== "index.ts")
      .map((e) => e.name);
    expect(loose).toEqual([]);
    const unsaid: string[] = [];
    for (const folder of entries.filter((e) => e.isDirectory())) {
      const barrel = await readFile(join(SRC, folder.name, "index.ts"), "utf8").catch(() => "");
      const files = (await readdir(join(SRC, folder.name))).filter((f) => f.endsWith(".ts") && !isTest(f));
      if (!/^\s*(\/\/|\/\*\*)/.test(barrel)) unsaid.push(`${folder.name}: no index.ts opening with what it owns`);
      if (files.length < 3) unsaid.push(`${folder.name}: a folder of one file (${files.join(", ")})`);
    }
    expect(unsaid).toEqual([]);
  });

  it("the checks find a cycle when there is one, type-only imports included", () => {
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

const REPO = resolve(SRC, "..", "..", "..");

/** Every product source file of the repository: the gateway's and each package's `src/`, tests and fakes left out. */
async function productSources(): Promise<string[]> {
  const roots = [SRC, ...(await readdir(join(REPO, "packages"))).map((name) => join(REPO, "packages", name, "src"))];
  const files: string[] = [];
  for (const root of roots) {
    const found = await sourceFiles(root).catch(() => []);
    files.push(...found.filter((file) => !file.split(sep).includes("testing")));
  }
  return files;
}

/** `a === b` / `a !== b` where one side names a secret (token, secret, password, signature, key) and the other is not a literal. */
const SECRET_COMPARE =
  /([\w$.[\]()]*(?:token|secret|password|passphrase|signature|apikey|authkey)\w*)\s*[!=]==?\s*([\w$.[\]()"'`-]+)|([\w$.[\]()"'`-]+)\s*[!=]==?\s*([\w$.[\]()]*(?:token|secret|password|passphrase|signature|apikey|authkey)\w*)/gi;
/**
 * Not secrets, though named like them: a lease's fencing token is a counter, a channel's state
 * signature a hash of its status, Feishu's `invalidToken` an error code.
 */
const NOT_SECRETS = [/lease\.token\s*!==\s*held\.lease\.token/, /!==\s*signature\(s\)/, /FeishuCode\.invalidToken/];
const LITERAL = /^(?:undefined|null|true|false|\d+|["'`].*|typeof\b.*)$/;

describe("secrets and built-ins", () => {
  it("no secret is compared with === or !== anywhere (a constant-time compare: the kit's safeEqual)", async () => {
    const found: string[] = [];
    for (const file of await productSources()) {
      const lines = (await readFile(file, "utf8")).split("\n");
      for (const [n, line] of lines.entries()) {
        if (/^\s*(\/\/|\*)/.test(line) || NOT_SECRETS.some((allowed) => allowed.test(line))) continue;
        for (const match of line.matchAll(SECRET_COMPARE)) {
          const other = (match[2] ?? match[3] ?? "").replace(/^[(!]+|[),;{]+$/g, "").trim();
          if (LITERAL.test(other) || /typeof\s*$/.test(line.slice(0, match.index))) continue;
          found.push(`${relative(REPO, file)}:${n + 1}: ${line.trim()}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it("the check finds a secret compared with ===", () => {
    const lines = ["if (given === token) return true;", "return header !== config.signingSecret;", "x.apiKey === key"];
    for (const line of lines) expect([...line.matchAll(SECRET_COMPARE)].length, line).toBe(1);
    expect([...'if (typeof token === "string")'.matchAll(SECRET_COMPARE)].map((m) => m[2])).toEqual(['"string")']);
  });

  it('the built-in webchat is known by its flag: no `=== "webchat"` outside its own folder', async () => {
    const found: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      if (relative(SRC, file).startsWith(`webchat${sep}`)) continue;
      const text = await readFile(file, "utf8");
      if (/[!=]==\s*["']webchat["']|["']webchat["']\s*[!=]==/.test(text)) found.push(relative(SRC, file));
    }
    expect(found).toEqual([]);
  });
});
