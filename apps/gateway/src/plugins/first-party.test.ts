import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { readChannelManifest } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { GATEWAY_PACKAGE_DIR } from "../support/index.js";
import { closestChannelId, FIRST_PARTY_CHANNEL_IDS, firstPartySpec, installCommandFor } from "./first-party.js";

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

describe("first-party channels", () => {
  it("the list is exactly the workspace's publishable channel packages", async () => {
    expect([...FIRST_PARTY_CHANNEL_IDS].sort()).toEqual(await workspaceChannels());
  });

  it("a spec names one by package (any id under our scope, with a version) or by a bare first-party id", () => {
    expect(firstPartySpec("@chorus/channel-telegram")).toEqual({ id: "telegram" });
    expect(firstPartySpec("@chorus/channel-slack@1.2.0")).toEqual({ id: "slack", version: "1.2.0" });
    expect(firstPartySpec("@chorus/channel-telegrm")).toEqual({ id: "telegrm" });
    expect(firstPartySpec("discord")).toEqual({ id: "discord" });
    for (const other of ["chorus-channel-matrix", "matrix", "./packages/channel-slack", "@acme/channel-x", "telegrm"])
      expect(firstPartySpec(other), other).toBeUndefined();
  });

  it("the install command: chorus plugins add <id> for a first-party id, none for any other", () => {
    for (const id of FIRST_PARTY_CHANNEL_IDS) expect(installCommandFor(id)).toBe(`chorus plugins add ${id}`);
    expect(installCommandFor("matrix")).toBeUndefined();
    expect(installCommandFor("acme")).toBeUndefined();
  });

  it("a typo one or two letters off an id is recognised; a different word is not", () => {
    expect(closestChannelId("telegrm")).toBe("telegram");
    expect(closestChannelId("discrod")).toBe("discord");
    expect(closestChannelId("whatsap")).toBe("whatsapp");
    expect(closestChannelId("slak")).toBe("slack");
    expect(closestChannelId("acmee", ["acme"])).toBe("acme");
    for (const far of ["matrix", "irc", "telegram", "chorus-channel-matrix", "@chorus/channel-x", "sl"])
      expect(closestChannelId(far), far).toBeUndefined();
  });
});
