import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chorusPaths, installGatewayLayout, validateInstallation } from "../../src/testing/index.js";

/*
 * Docs as they are copied: every ```json5 block of every README and of docs/ is a complete config
 * that passes the one validation (the gateway's schema, each channel plugin's, the rules across),
 * with every channel installed and each ${NAME} set. And the promises around them: a LICENSE, the
 * contract under docs/, an install line in every channel README.
 */

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

async function markdownFiles(): Promise<string[]> {
  const files = [join(ROOT, "README.md"), join(ROOT, "apps", "gateway", "README.md")];
  for (const dir of await readdir(join(ROOT, "packages"))) {
    const readme = join(ROOT, "packages", dir, "README.md");
    if (existsSync(readme)) files.push(readme);
  }
  for (const doc of await readdir(join(ROOT, "docs"))) if (doc.endsWith(".md")) files.push(join(ROOT, "docs", doc));
  return files;
}

/** The ```json5 blocks of a Markdown text, their indentation removed. */
function json5Blocks(markdown: string): string[] {
  return [...markdown.matchAll(/^([ \t]*)```json5\n([\s\S]*?)^\1```/gm)].map(([, indent, body]) =>
    (body ?? "")
      .split("\n")
      .map((line) => (line.startsWith(indent ?? "") ? line.slice((indent ?? "").length) : line))
      .join("\n"),
  );
}

/** A value for `${NAME}` that the key it stands in for accepts. */
function dummy(name: string): string {
  if (/TELEGRAM.*BOT_TOKEN/.test(name)) return "123456789:AAreadmeCheckToken_0123456789abcdef";
  if (/BOT_TOKEN$/.test(name)) return "xoxb-readme-check-0123456789";
  if (/APP_TOKEN$/.test(name)) return "xapp-1-readme-check-0123456789";
  return "readme-check-secret-0123456789abcdef0123456789abcdef";
}

describe("every README example config is valid as copied", () => {
  let work: string;
  let gatewayDir: string;

  beforeAll(async () => {
    // An installation with every channel and model provider next to the gateway, as a person who installed them has.
    work = await mkdtemp(join(tmpdir(), "chorus-readme-"));
    const scope = join(work, "install", "node_modules", "@chorus");
    gatewayDir = join(scope, "gateway");
    await installGatewayLayout(gatewayDir);
    for (const dir of await readdir(join(ROOT, "packages"))) {
      if (dir.startsWith("channel-") && dir !== "channel-kit")
        await symlink(join(ROOT, "packages", dir), join(scope, dir));
    }
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it("finds the examples (the gateway README's, the model providers', each channel's)", async () => {
    const counts = await Promise.all(
      (await markdownFiles()).map(async (file) => json5Blocks(await readFile(file, "utf8")).length),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(20);
  });

  it("each block passes config check", async () => {
    const failures: string[] = [];
    for (const file of await markdownFiles()) {
      const blocks = json5Blocks(await readFile(file, "utf8"));
      for (const [index, block] of blocks.entries()) {
        const home = join(work, "home", `${relative(ROOT, file).replace(/\W+/g, "-")}-${index}`);
        await mkdir(home, { recursive: true });
        await writeFile(join(home, "chorus.json"), block);
        const env = Object.fromEntries(
          [...block.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map(([, name]) => [name, dummy(name as string)]),
        );
        const validation = await validateInstallation({
          paths: chorusPaths(home, {}),
          env,
          source: "home",
          gatewayDir,
        });
        for (const finding of validation.findings.filter((f) => f.level === "error")) {
          failures.push(`${relative(ROOT, file)} block ${index + 1}: ${finding.path}: ${finding.message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("the repository's own docs", () => {
  it("a LICENSE matching every package's license, and the contract under docs/, linked from the READMEs", async () => {
    expect(await readFile(join(ROOT, "LICENSE"), "utf8")).toMatch(/^MIT License/);
    for (const dir of ["packages", "apps"]) {
      for (const name of await readdir(join(ROOT, dir))) {
        const manifest = join(ROOT, dir, name, "package.json");
        if (existsSync(manifest)) expect(JSON.parse(await readFile(manifest, "utf8")).license, name).toBe("MIT");
      }
    }
    const design = await readFile(join(ROOT, "docs", "design.md"), "utf8");
    for (const section of [
      "## 2. The `message` tool",
      "### 2.2 Semantics",
      "## 3. The plugin contract",
      "## 4. Group messages",
      "## 6. HTTP API",
    ]) {
      expect(design).toContain(section);
    }
    expect(design).toContain(
      "`reactionLevel` governs the agent and the runtime's own reactions; calls from whoever holds the\ngateway token (HTTP API, CLI) are not limited by it.",
    );
    expect(await readFile(join(ROOT, "README.md"), "utf8")).toContain("(docs/design.md)");
    expect(await readFile(join(ROOT, "apps", "gateway", "README.md"), "utf8")).toContain("docs/design.md");
  });

  it("every provider install command in the docs names a provider package at the gateway's own range", async () => {
    const { peerDependencies } = JSON.parse(await readFile(join(ROOT, "apps", "gateway", "package.json"), "utf8")) as {
      peerDependencies: Record<string, string>;
    };
    const commands: string[] = [];
    for (const file of await markdownFiles()) {
      for (const [command, name, range] of (await readFile(file, "utf8")).matchAll(
        /npm i\s+(?:-g\s+)?((?:@ai-sdk\/|ollama-)[\w-]+)@([^\s`]+)/g,
      )) {
        commands.push(command);
        if (range !== "<range>")
          expect(range, `${relative(ROOT, file)}: ${command}`).toBe(peerDependencies[name as string]);
      }
    }
    expect(commands.length).toBeGreaterThanOrEqual(3);
  });

  it("every channel README has an install line", async () => {
    for (const dir of await readdir(join(ROOT, "packages"))) {
      if (!dir.startsWith("channel-") || dir === "channel-kit" || dir === "channel-template") continue;
      const readme = await readFile(join(ROOT, "packages", dir, "README.md"), "utf8");
      expect(readme, dir).toContain(`chorus plugins add @chorus/${dir}`);
    }
  });
});
