// The media store (DESIGN §2.6): media content-addressed on the state backend, streamed in and out, with retention; the sources of a send (url with the address guard, path, mediaId, data), its plan, the media an outbox row sends, and signed links.
export { type AddressPolicy, blockedAddress } from "./address-guard.js";
export type { Blobs } from "./blobs.js";
export { CHUNK_BYTES, ChunkBlobs } from "./chunk-blobs.js";
export { FileBlobs } from "./file-blobs.js";
export { fileStream, openForReading, writeAll } from "./file-stream.js";
export { defaultFilename, filenameOfUrl, sanitizeFilename } from "./filename.js";
export { LINK_LIFETIME_MS, linkKey, MediaLinks } from "./links.js";
export { type GatewayMedia, openMedia, sweepEveryMs } from "./open-media.js";
export {
  type OutboxMedia,
  outboundMedia,
  outboxMediaOf,
  type PlannedMedium,
  recordOutboxMedia,
  storedStream,
} from "./outbox-media.js";
export { type Resolve, systemResolve } from "./pinned-lookup.js";
export { capOf, type PlanContext, type PlannedSend, planSend, type SendToPlan } from "./plan-send.js";
export { type MediaSettings, mediaHome, mediaSettingsOf } from "./settings.js";
export { kindOfMime, type Sniffed, sniffMedium } from "./sniff.js";
export {
  mediumFromData,
  mediumFromId,
  mediumFromPath,
  mediumFromUrl,
  type ResolvedMedium,
  resolveMediaItem,
  type SourceOptions,
} from "./sources.js";
export { DbMediaStore, MEDIA_ID_PATTERN, newMediaId } from "./store.js";
export type { MediaStore, PutMediumOptions, StoredMedium } from "./types.js";
export { type FetchedMedium, fetchGuarded, type GuardedFetchOptions } from "./url-fetch.js";
