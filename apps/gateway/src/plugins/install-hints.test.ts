import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { readChannelManifest } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { GATEWAY_PACKAGE_DIR } from "../package-dir.js";
import { FIRST_PARTY_CHANNEL_IDS, installSpecFor } from "./install-hints.js";

/** The channel ids of the workspace's publishable `@chorus/channel-*` packages (private ones, like the template, are not). */
async function workspaceChannels(): Promise<string[]> {
  const packages = join(GATEWAY_PACKAGE_DIR, "..", "..", "packages");
  const ids: string[] = [];
  for (const dir of await readdir(packages)) {
    if (!dir.startsWith("channel-")) continue;
    const pkg = JSON.parse(await readFile(join(packages, dir, "package.json"), "utf8"));
    if (pkg.private === true || pkg.chorus === undefined) continue;
    const manifest = readChannelManifest(pkg, `${dir}/package.json`);
    if (manifest === undefined) continue;
    expect(pkg.name).toBe(`@chorus/channel-${manifest.id}`);
    ids.push(manifest.id);
  }
  return ids.sort();
}

describe("installSpecFor", () => {
  it("names @chorus/channel-<id> for every first-party id, and chorus-channel-<id> for any other", () => {
    for (const id of FIRST_PARTY_CHANNEL_IDS) expect(installSpecFor(id)).toBe(`@chorus/channel-${id}`);
    expect(installSpecFor("acme")).toBe("chorus-channel-acme");
    expect(installSpecFor("matrix")).toBe("chorus-channel-matrix");
  });

  it("the first-party list is exactly the workspace's publishable channel packages", async () => {
    expect([...FIRST_PARTY_CHANNEL_IDS].sort()).toEqual(await workspaceChannels());
  });
});
