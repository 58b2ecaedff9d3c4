import { ChorusError } from "../errors.js";

/** The plugin API version this core speaks. A plugin declares the one it was built for. */
export const CHORUS_API_VERSION = 1 as const;

/** `package.json#chorus` of a channel package, read without importing its code. */
export interface ChannelManifest {
  readonly kind: "channel";
  readonly id: string;
  readonly apiVersion: number;
}

/** A channel id: lower case letters, digits and dashes, starting with a letter. */
export const CHANNEL_ID_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;

/**
 * Reads the `chorus` manifest of a package.json object; returns undefined when the package has
 * none, throws `E_INVALID_INPUT` naming the field when the manifest is broken.
 */
export function readChannelManifest(packageJson: unknown, source = "package.json"): ChannelManifest | undefined {
  if (typeof packageJson !== "object" || packageJson === null) return undefined;
  const manifest = (packageJson as { chorus?: unknown }).chorus;
  if (manifest === undefined) return undefined;
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
    throw new ChorusError("E_INVALID_INPUT", `${source}: "chorus" must be an object`);
  }
  const { kind, id, apiVersion } = manifest as Record<string, unknown>;
  if (kind !== "channel") {
    throw new ChorusError("E_INVALID_INPUT", `${source}: chorus.kind must be "channel", got ${JSON.stringify(kind)}`);
  }
  if (typeof id !== "string" || !CHANNEL_ID_PATTERN.test(id)) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `${source}: chorus.id must match ${CHANNEL_ID_PATTERN}, got ${JSON.stringify(id)}`,
    );
  }
  if (typeof apiVersion !== "number" || !Number.isInteger(apiVersion) || apiVersion < 1) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `${source}: chorus.apiVersion must be a positive integer, got ${JSON.stringify(apiVersion)}`,
    );
  }
  return { kind, id, apiVersion };
}
