export { createMemoryChannel, MEMORY_MEDIA, type MemoryChannelOptions } from "./channel.js";
export { type MemoryConfig, memoryConfigSchema } from "./config.js";
export { MemoryMediaStore, type StoredMedium } from "./media-store.js";
export {
  createMemoryPlatform,
  type MemoryPlatform,
  type MemoryPlatformOptions,
  type UserMessageInput,
} from "./platform.js";
export type { MemoryMessageMedia, UserMediumInput } from "./platform-media.js";
export { MemoryPlatformState } from "./platform-state.js";
export { DEFAULT_PLATFORM_RULES, type MemoryPlatformRules } from "./rules.js";
export type * from "./wire.js";
