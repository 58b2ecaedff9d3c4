/** How the memory platform itself behaves: the "real" reaction rules a plugin must match. */
export interface MemoryPlatformRules {
  /** One reaction per user per message; a new one replaces the old. */
  singleSlot: boolean;
  /** Reactions cannot be removed (DELETE answers 405). */
  addOnly: boolean;
  /** Reactions can be listed (otherwise GET answers 405). */
  list: boolean;
  /** Closed set of allowed reactions (platform form); anything else answers 400. */
  vocabulary?: readonly string[];
  /** Longest text of one message. */
  maxTextLength: number;
  /** Largest upload (`POST /v1/uploads`) in bytes; a larger one answers 413 `too_large`. */
  maxUploadBytes: number;
  /** Most media on one message; more answer 400 `too_many_media`. */
  maxMediaPerMessage: number;
}

export const DEFAULT_PLATFORM_RULES: MemoryPlatformRules = {
  singleSlot: false,
  addOnly: false,
  list: true,
  maxTextLength: 2000,
  maxUploadBytes: 5 * 1024 * 1024,
  maxMediaPerMessage: 4,
};
