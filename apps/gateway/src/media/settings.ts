import { join, resolve } from "node:path";
import type { MediaConfig } from "../config/index.js";
import type { AddressPolicy } from "./address-guard.js";
import type { Resolve } from "./pinned-lookup.js";

/** `media` as the store and the sources use it, with the home's paths filled in. */
export interface MediaSettings {
  /** Where `path` sources are read from: `media.dir` (relative to the home), default `<home>/media/outbox`. */
  readonly dir: string;
  /** Whether `dir` is the default one (the gateway creates it). */
  readonly defaultDir: boolean;
  /** `<home>/media/blobs`: the bytes of the store with SQLite. */
  readonly blobsDir: string;
  /** `media.maxBytes`: one medium at most, in or out. */
  readonly maxBytes: number;
  /** `media.retention` in milliseconds. */
  readonly retentionMs: number;
  /** `media.linkLifetime` in milliseconds: how long a signed link works. */
  readonly linkLifetimeMs: number;
  readonly policy: AddressPolicy;
  /** DNS for `url` sources (tests inject answers). */
  readonly resolve?: Resolve | undefined;
}

/** `<home>/media`. */
export function mediaHome(home: string): string {
  return join(home, "media");
}

/** The settings of `media` in the config, for the home `home`. */
export function mediaSettingsOf(config: MediaConfig, home: string): MediaSettings {
  return {
    dir: config.dir === undefined ? join(mediaHome(home), "outbox") : resolve(home, config.dir),
    defaultDir: config.dir === undefined,
    blobsDir: join(mediaHome(home), "blobs"),
    maxBytes: config.maxBytes,
    retentionMs: config.retention,
    linkLifetimeMs: config.linkLifetime,
    policy: { allowPrivateUrls: config.allowPrivateUrls, allowHosts: config.allowHosts },
  };
}
