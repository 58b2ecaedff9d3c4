import { editDistance } from "../config/index.js";

/**
 * The first-party channel ids: the repository's publishable `@chorus/channel-<id>` packages (a test
 * checks this list against the workspace). `chorus plugins add <id>` installs one from a clone.
 */
export const FIRST_PARTY_CHANNEL_IDS = [
  "discord",
  "feishu",
  "imessage",
  "nextcloud",
  "signal",
  "slack",
  "telegram",
  "whatsapp",
  "zalouser",
] as const;

/** The package name of a first-party channel. */
export function firstPartyPackage(id: string): string {
  return `@chorus/channel-${id}`;
}

/** Whether `id` is a first-party channel id. */
export function isFirstPartyId(id: string): boolean {
  return (FIRST_PARTY_CHANNEL_IDS as readonly string[]).includes(id);
}

/** A `plugins add` spec that names a first-party channel: its id, and the version asked for, if any. */
export interface FirstPartySpec {
  id: string;
  /** What followed `@` in `@chorus/channel-<id>@<version>`. */
  version?: string;
}

const SCOPED = /^@chorus\/channel-([a-z0-9][a-z0-9-]*)(?:@(.+))?$/;
const BARE_ID = /^[a-z0-9][a-z0-9-]*$/;

/**
 * The first-party channel `spec` names — `@chorus/channel-<id>[@version]` (any id: the scope is
 * ours, so no other package may be taken for it) or a bare first-party id (`telegram`) — else undefined.
 */
export function firstPartySpec(spec: string): FirstPartySpec | undefined {
  const scoped = SCOPED.exec(spec);
  if (scoped?.[1]) return scoped[2] ? { id: scoped[1], version: scoped[2] } : { id: scoped[1] };
  return isFirstPartyId(spec) ? { id: spec } : undefined;
}

/**
 * The channel id `word` was most likely meant to be (one or two letters off), among the first-party
 * ids and `others` (installed channels); undefined when none is that close.
 */
export function closestChannelId(word: string, others: readonly string[] = []): string | undefined {
  if (!BARE_ID.test(word)) return undefined;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of new Set([...FIRST_PARTY_CHANNEL_IDS, ...others])) {
    if (candidate === word) continue;
    const distance = editDistance(word, candidate);
    const allowed = Math.min(2, Math.floor(Math.max(word.length, candidate.length) / 3));
    if (distance <= allowed && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** The command that installs a channel by id: `chorus plugins add <id>` for a first-party one; undefined for any other (no package name is made up). */
export function installCommandFor(id: string): string | undefined {
  return isFirstPartyId(id) ? `chorus plugins add ${id}` : undefined;
}
