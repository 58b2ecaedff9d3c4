/** The schema library, one copy for the gateway and every first-party plugin (bundled into core's runtime). */
export { z } from "zod";
export type { CompactEmoji } from "./emoji/data.js";
export {
  emojiKey,
  listEmoji,
  normalizeShortcode,
  type ResolvedEmoji,
  resolveEmoji,
  stripVariationSelectors,
  withSkinTone,
} from "./emoji/resolve.js";
export { defineVocabulary, ReactionVocabulary, type VocabularyEntry } from "./emoji/vocabulary.js";
export {
  ChorusError,
  type ChorusErrorOptions,
  ERROR_CODES,
  type ErrorCode,
  type ErrorPayload,
  isChorusError,
  RateLimitedError,
  toChorusError,
  UnsupportedEmojiError,
} from "./errors.js";
export type { Attachment, ContactCard, DownloadedMedium, DownloadOptions, GeoLocation } from "./media/attachment.js";
export {
  accountCapabilities,
  type MediaCapabilities,
  mediaCapabilityProblems,
  mediaOf,
  NO_MEDIA,
  sendLimitOf,
} from "./media/capabilities.js";
export { formatBytes } from "./media/format.js";
export { type AttachmentKind, fallbackChain, MEDIA_FALLBACK, MEDIA_KINDS, type MediaKind } from "./media/kinds.js";
export type { OutboundMedium } from "./media/outbound.js";
export {
  locationText,
  type MediaPlan,
  type MediaPlanInput,
  type MediaPlanOptions,
  type MediumToPlan,
  type PlannedItem,
  type PlannedMessage,
  planMedia,
  type UploadKind,
} from "./media/plan.js";
export type {
  ChatType,
  Conversation,
  ConversationAddress,
  InboundEvent,
  InboundMessageEvent,
  InboundReactionEvent,
  MentionFacts,
  Participant,
  ReplyContext,
} from "./plugin/events.js";
export { type Logger, silentLogger } from "./plugin/logger.js";
export {
  CHANNEL_ID_PATTERN,
  CHORUS_API_VERSION,
  type ChannelManifest,
  readChannelManifest,
} from "./plugin/manifest.js";
export { type JsonValue, type MessageRef, parseMessageRef } from "./plugin/message-ref.js";
export {
  type ChannelCapabilities,
  type ChannelContext,
  type ChannelInstance,
  type ChannelLoginContext,
  type ChannelLoginResult,
  type ChannelPlugin,
  type ChannelProbeContext,
  type ChannelProbeResult,
  type ChannelState,
  type ChannelStatus,
  channelPluginProblems,
  defineChannel,
  type HttpHandler,
  type HttpMethod,
  type LoginOption,
  type OutboundMessage,
} from "./plugin/plugin.js";
export { mintRef, type RefParts, type RefScope } from "./plugin/ref-scope.js";
export {
  type ChannelStore,
  MAX_STORE_KEY_LENGTH,
  MAX_STORE_VALUE_BYTES,
  type StoreEntry,
  type StoreSetOptions,
} from "./plugin/store.js";
export { NO_REACTIONS, type ReactionCapabilities } from "./reactions/capabilities.js";
export type { ReactCall, ReactionIntent, ReactionOp } from "./reactions/intent.js";
export {
  agentMayReact,
  DEFAULT_REACTION_LEVEL,
  REACTION_LEVELS,
  type ReactionLevel,
  reactionGuidance,
  resolveReactionLevel,
  runtimeMayReact,
} from "./reactions/level.js";
export { MAX_EMOJI_LENGTH, type NormalizeOptions, normalizeReaction } from "./reactions/normalize.js";
export { type PerformReactionInput, performReaction } from "./reactions/perform.js";
export { unsupportedEmoji } from "./reactions/unsupported.js";
export { vocabularyFromNames, vocabularyOf } from "./reactions/vocabulary-of.js";
export type {
  ListReactionsResult,
  MessageToolFailure,
  MessageToolResult,
  MessageToolSuccess,
  ReactionSummary,
  ReactResult,
  SendResult,
} from "./results.js";
export { splitText, type TextMeasure } from "./text/split.js";
export { describeReactionRules } from "./tool/describe.js";
export { describeMediaRules, offersMedia, uploadKindsOf } from "./tool/describe-media.js";
export {
  MAX_SEND_TEXT_LENGTH,
  MESSAGE_ACTIONS,
  type MessageAction,
  type MessageToolInput,
  messageToolInputSchema,
} from "./tool/input.js";
export {
  checkInlineMedia,
  locationSchema,
  MAX_INLINE_MEDIA_BYTES,
  MAX_MEDIA_PER_SEND,
  MEDIA_SOURCES,
  type MediaItemInput,
  type MediaSource,
  mediaItemSchema,
  UPLOAD_KINDS,
} from "./tool/media-input.js";
export { buildMessageTool, type MessageToolDefinition, type MessageToolOptions } from "./tool/schema.js";
