import { chmod, chown, mkdir, mkdtemp, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makePrivateDir, makePrivateFile, restrictToOwner, restrictTreeToOwner } from "./owner-only.js";

const modeOf = async (path: string) => (await stat(path)).mode & 0o7777;

let dir: string;
let umask: number;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-owner-only-"));
  umask = process.umask(0o022);
});
afterEach(async () => {
  process.umask(umask);
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform === "win32")("owner-only files", () => {
  it("takes group and other permissions off, and never adds any", async () => {
    const file = join(dir, "chat.json");
    await writeFile(file, "{}");
    await chmod(file, 0o644);
    expect(restrictToOwner(file)).toBe("tightened");
    expect(await modeOf(file)).toBe(0o600);
    expect(restrictToOwner(file)).toBe("private");

    const readOnly = join(dir, "read-only");
    await writeFile(readOnly, "x");
    await chmod(readOnly, 0o444);
    expect(restrictToOwner(readOnly)).toBe("tightened");
    expect(await modeOf(readOnly)).toBe(0o400);

    const tool = join(dir, "tool");
    await writeFile(tool, "#!/bin/sh\n");
    await chmod(tool, 0o755);
    restrictToOwner(tool);
    expect(await modeOf(tool)).toBe(0o700);

    expect(restrictToOwner(join(dir, "nothing"))).toBe("missing");
  });

  it("leaves what another user owns as it is", async () => {
    const theirs = join(dir, "theirs");
    await writeFile(theirs, "x");
    await chmod(theirs, 0o644);
    // As root, a file handed to `nobody`; as anyone else, root's `/` (only looked at).
    const root = process.getuid?.() === 0;
    if (root) await chown(theirs, 65534, 65534);
    const path = root ? theirs : "/";
    const before = await modeOf(path);
    expect(restrictToOwner(path)).toBe("not-owned");
    expect(await modeOf(path)).toBe(before);
  });

  it("tightens a tree, not following symbolic links out of it", async () => {
    const outside = join(dir, "outside");
    await writeFile(outside, "x");
    await chmod(outside, 0o644);
    const tree = join(dir, "state");
    await mkdir(join(tree, "telegram", "default"), { recursive: true, mode: 0o755 });
    await writeFile(join(tree, "telegram", "default", "offset.json"), "{}", { mode: 0o644 });
    await writeFile(join(tree, "telegram", "default", "private.json"), "{}", { mode: 0o600 });
    await symlink(outside, join(tree, "telegram", "default", "link"));

    expect(restrictTreeToOwner(tree)).toBe(4);
    expect(await modeOf(tree)).toBe(0o700);
    expect(await modeOf(join(tree, "telegram"))).toBe(0o700);
    expect(await modeOf(join(tree, "telegram", "default"))).toBe(0o700);
    expect(await modeOf(join(tree, "telegram", "default", "offset.json"))).toBe(0o600);
    expect(await modeOf(join(tree, "telegram", "default", "private.json"))).toBe(0o600);
    expect(await modeOf(outside)).toBe(0o644);
    expect(restrictTreeToOwner(tree)).toBe(0);
    expect(restrictTreeToOwner(join(dir, "no-tree"))).toBe(0);
  });

  it("creates directories and files owner-only under a shared umask, and tightens existing ones", async () => {
    process.umask(0o002);
    const home = join(dir, "a", "home");
    expect(makePrivateDir(home)).toBe("private");
    expect(await modeOf(join(dir, "a"))).toBe(0o700);
    expect(await modeOf(home)).toBe(0o700);
    const file = join(home, "chorus.db");
    expect(makePrivateFile(file)).toBe("private");
    expect(await modeOf(file)).toBe(0o600);

    await chmod(home, 0o755);
    await chmod(file, 0o664);
    expect(makePrivateDir(home)).toBe("tightened");
    expect(makePrivateFile(file)).toBe("tightened");
    expect(await modeOf(home)).toBe(0o700);
    expect(await modeOf(file)).toBe(0o600);
  });
});
