import { describe, expect, it } from "vitest";
import { ChorusError } from "../errors.js";
import { CHANNEL_ID_PATTERN, CHORUS_API_VERSION, readChannelManifest } from "./manifest.js";

/** The E_INVALID_INPUT readChannelManifest throws for `packageJson`. */
function rejection(packageJson: unknown, source?: string): ChorusError {
  try {
    readChannelManifest(packageJson, source);
  } catch (error) {
    expect(error).toBeInstanceOf(ChorusError);
    expect((error as ChorusError).code).toBe("E_INVALID_INPUT");
    return error as ChorusError;
  }
  throw new Error("expected readChannelManifest to reject");
}

describe("readChannelManifest", () => {
  it("reads a channel manifest", () => {
    expect(
      readChannelManifest({
        name: "@chorus/channel-telegram",
        chorus: { kind: "channel", id: "telegram", apiVersion: 1 },
      }),
    ).toEqual({ kind: "channel", id: "telegram", apiVersion: 1 });
  });

  it("keeps only kind, id and apiVersion", () => {
    const manifest = readChannelManifest({
      chorus: { kind: "channel", id: "nextcloud-talk", apiVersion: 1, extra: true },
    });
    expect(manifest).toEqual({ kind: "channel", id: "nextcloud-talk", apiVersion: 1 });
    expect(Object.keys(manifest ?? {})).toEqual(["kind", "id", "apiVersion"]);
  });

  it("accepts a newer apiVersion (the loader decides whether it speaks it)", () => {
    expect(readChannelManifest({ chorus: { kind: "channel", id: "matrix", apiVersion: 2 } })?.apiVersion).toBe(2);
  });

  it.each([
    ["a package without chorus", { name: "left-pad" }],
    ["null", null],
    ["a string", "package.json"],
    ["undefined", undefined],
  ])("returns undefined for %s", (_, packageJson) => {
    expect(readChannelManifest(packageJson)).toBeUndefined();
  });

  it.each([["tool"], ["chanel"], [undefined]])("rejects chorus.kind %j, naming chorus.kind", (kind) => {
    expect(rejection({ chorus: { kind, id: "x", apiVersion: 1 } }).message).toBe(
      `package.json: chorus.kind must be "channel", got ${JSON.stringify(kind)}`,
    );
  });

  it.each([
    ["a string", "channel"],
    ["an array", ["channel"]],
    ["null", null],
  ])("rejects chorus that is %s, naming chorus", (_, chorus) => {
    expect(rejection({ chorus }).message).toBe('package.json: "chorus" must be an object');
  });

  it.each([["Telegram"], ["tele gram"], ["9lives"], [""], [42], [undefined], ["a".repeat(65)]])(
    "rejects the id %j, naming chorus.id",
    (id) => {
      const error = rejection({ chorus: { kind: "channel", id, apiVersion: 1 } });
      expect(error.message).toContain("chorus.id must match");
      expect(error.message).toContain(`got ${JSON.stringify(id)}`);
    },
  );

  it.each([[0], [-1], [1.5], ["1"], [null], [undefined]])(
    "rejects the apiVersion %j, naming chorus.apiVersion",
    (apiVersion) => {
      const error = rejection({ chorus: { kind: "channel", id: "telegram", apiVersion } });
      expect(error.message).toContain("chorus.apiVersion must be a positive integer");
    },
  );

  it("names the source in the message", () => {
    const error = rejection({ chorus: { kind: "channel", id: "X" } }, "node_modules/chorus-channel-x/package.json");
    expect(error.message).toMatch(/^node_modules\/chorus-channel-x\/package\.json: chorus\.id/);
  });
});

describe("channel ids", () => {
  it("allow lower case letters, digits and dashes, starting with a letter, up to 64 characters", () => {
    for (const id of ["telegram", "nextcloud-talk", "x", "matrix2", `a${"b".repeat(63)}`]) {
      expect(CHANNEL_ID_PATTERN.test(id), id).toBe(true);
    }
    for (const id of ["", "-x", "2x", "X", "a_b", "a.b", `a${"b".repeat(64)}`]) {
      expect(CHANNEL_ID_PATTERN.test(id), id).toBe(false);
    }
  });

  it("this core speaks API version 1", () => {
    expect(CHORUS_API_VERSION).toBe(1);
  });
});
