import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * The channel skeleton (STYLE.md), checked on every first-party channel, the template and the hello
 * example: the same files in every package, so a channel reads top-down the same way in each.
 */

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
/** The files of the skeleton: `<name>.ts`, or a folder `<name>/` whose `index.ts` plays the role. */
const SKELETON = ["index", "config", "instance", "receive", "inbound", "outbound", "reactions"] as const;

async function channelPackages(): Promise<string[]> {
  const packages = (await readdir(join(REPO, "packages")))
    .filter((name) => name.startsWith("channel-") && name !== "channel-kit")
    .map((name) => join(REPO, "packages", name));
  return [...packages, join(REPO, "examples", "channel-hello")];
}

/** The source of a skeleton role: `src/<name>.ts` or `src/<name>/index.ts`. */
async function roleSource(dir: string, name: string): Promise<string | undefined> {
  for (const file of [join(dir, "src", `${name}.ts`), join(dir, "src", name, "index.ts")])
    if (existsSync(file)) return readFile(file, "utf8");
  return undefined;
}

describe("the channel skeleton", () => {
  it("every channel has its files: index, config, instance, receive, inbound, outbound, reactions (and a fake under testing/)", async () => {
    const missing: string[] = [];
    for (const dir of await channelPackages()) {
      const name = dir.slice(REPO.length);
      for (const role of SKELETON) if ((await roleSource(dir, role)) === undefined) missing.push(`${name}: ${role}`);
      // The hello example runs on testkit's memory platform; every real channel brings its own fake.
      if (!name.startsWith("examples/") && !existsSync(join(dir, "src", "testing", "index.ts")))
        missing.push(`${name}: testing/index.ts`);
    }
    expect(missing).toEqual([]);
  });

  it("index.ts is the plugin object: defined with defineChannel, default-exported, no classes, a page at most", async () => {
    const wrong: string[] = [];
    for (const dir of await channelPackages()) {
      const source = (await roleSource(dir, "index")) ?? "";
      const name = dir.slice(REPO.length);
      if (!source.includes("defineChannel")) wrong.push(`${name}: no defineChannel`);
      if (!/^export default /m.test(source)) wrong.push(`${name}: no default export`);
      if (/^(export )?class /m.test(source)) wrong.push(`${name}: a class in index.ts`);
      if (source.split("\n").length > 100) wrong.push(`${name}: index.ts over 100 lines`);
    }
    expect(wrong).toEqual([]);
  });

  it("receive.ts is on the kit's shared receiver; outbound and reactions are factories, not classes", async () => {
    const wrong: string[] = [];
    for (const dir of await channelPackages()) {
      const name = dir.slice(REPO.length);
      if (!(await roleSource(dir, "receive"))?.includes("createReceiver"))
        wrong.push(`${name}: receive.ts without createReceiver`);
      for (const role of ["outbound", "reactions"]) {
        const source = (await roleSource(dir, role)) ?? "";
        if (/^export class /m.test(source)) wrong.push(`${name}: ${role} exports a class`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
