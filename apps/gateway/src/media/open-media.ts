import type { Logger } from "pino";
import type { SqlDb } from "../state/index.js";
import { makePrivateDir } from "../support/index.js";
import { ChunkBlobs } from "./chunk-blobs.js";
import { FileBlobs } from "./file-blobs.js";
import { linkKey, MediaLinks } from "./links.js";
import type { MediaSettings } from "./settings.js";
import { DbMediaStore } from "./store.js";

/** The gateway's media, opened: the store, its signed links, and the settings they follow. */
export interface GatewayMedia {
  readonly store: DbMediaStore;
  readonly links: MediaLinks;
  readonly settings: MediaSettings;
  /** Stops the retention sweep. */
  close(): void;
}

/** How often the retention sweep runs: a 24th of the retention, between a minute and an hour. */
export function sweepEveryMs(retentionMs: number): number {
  return Math.min(60 * 60_000, Math.max(60_000, Math.floor(retentionMs / 24)));
}

/**
 * Opens the media store on the state's backend (files beside SQLite, chunks in PostgreSQL), its
 * link key, and — with `sweep` — the retention sweep on a timer that never holds the process open.
 * The default `path` directory (`<home>/media/outbox`) is created owner-only, so there is a place
 * to put files.
 */
export async function openMedia(
  db: SqlDb,
  settings: MediaSettings,
  options: { publicUrl?: string | undefined; logger?: Pick<Logger, "warn" | "info"> | undefined; sweep?: boolean } = {},
): Promise<GatewayMedia> {
  const blobs = db.dialect === "postgres" ? new ChunkBlobs(db) : new FileBlobs(db, settings.blobsDir);
  const store = new DbMediaStore(db, blobs, { retentionMs: settings.retentionMs });
  const links = new MediaLinks(await linkKey(db), options.publicUrl?.replace(/\/+$/, ""), settings.linkLifetimeMs);
  if (settings.defaultDir) {
    try {
      makePrivateDir(settings.dir);
    } catch (error) {
      options.logger?.warn(
        { err: (error as Error).message, dir: settings.dir },
        "could not create the media directory",
      );
    }
  }
  let timer: NodeJS.Timeout | undefined;
  if (options.sweep) {
    timer = setInterval(() => {
      store
        .prune()
        .then((deleted) => {
          if (deleted > 0) options.logger?.info({ deleted }, "media past their retention deleted");
        })
        .catch((error: unknown) => options.logger?.warn({ err: (error as Error).message }, "media sweep failed"));
    }, sweepEveryMs(settings.retentionMs));
    timer.unref();
  }
  return {
    store,
    links,
    settings,
    close: () => {
      if (timer) clearInterval(timer);
    },
  };
}
