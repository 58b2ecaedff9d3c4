import type { ChannelContractFixture } from "./types.js";
import { check } from "./violation.js";

type NetworkHook = "redeliverLast" | "deliverUnparseable" | "fault" | "heal" | "unreachableConfig";

/**
 * A network hook of the fixture, or undefined for an in-process channel that left it out; a
 * fixture of a networked platform must provide every one of them.
 */
export function networkHook<K extends NetworkHook>(
  fixture: ChannelContractFixture,
  name: K,
): NonNullable<ChannelContractFixture[K]> | undefined {
  const hook = fixture[name];
  if (hook !== undefined) return hook as NonNullable<ChannelContractFixture[K]>;
  check(
    typeof fixture.inProcess === "string" && fixture.inProcess.trim() !== "",
    `the fixture has no ${name}: a channel with a platform across a network must provide it (only an in-process channel may leave it out, saying why in inProcess)`,
  );
  return undefined;
}
