// The built-in webchat channel: its hub (rooms, people, messages, reactions, kept in the channel's
// store; media in the gateway's media store), the plugin that builds it from its context, and the
// page, socket and routes (uploads, media) the gateway serves it on.
export { type WebchatConfig, webchatConfigSchema } from "./config.js";
export { WebchatHub } from "./hub.js";
export type { PostOptions, WebchatHubOptions } from "./hub-options.js";
export { toInboundEvents, webchatRef } from "./inbound.js";
export { LEGACY_STATE_FILE as WEBCHAT_LEGACY_STATE_FILE } from "./legacy-state.js";
export type { WebchatMediaStore } from "./media-store.js";
export { findMentions } from "./mentions.js";
export {
  builtPageAssets,
  WEBCHAT_PAGE_FILES,
  type WebchatPageAssets,
  type WebchatPageOptions,
  webchatPage,
  webchatPageCsp,
} from "./page.js";
export { createWebchatPlugin, WEBCHAT_CAPABILITIES, WEBCHAT_CHANNEL_ID, WEBCHAT_MEDIA } from "./plugin.js";
export {
  type ClientFrame,
  type ClientFrameType,
  clientFrameSchema,
  errorFrame,
  parseClientFrame,
  type ServerFrame,
} from "./protocol.js";
export { MAX_EMOJI_PER_MESSAGE } from "./reactions.js";
export { directRoomId, directRoomOwner, LOBBY, normalizeRoomId, roomKind } from "./rooms.js";
export { type HubWatcher, WebchatSite, type WebchatSiteOptions } from "./site.js";
export { attachWebchatSocket, WEBCHAT_SOCKET_PATH, type WebchatSocket, type WebchatSocketOptions } from "./socket.js";
export {
  BOT_ID,
  type ChatMessageView,
  type HubEvent,
  type HubListener,
  type MediumView,
  type ReactionChange,
  type ReactionView,
  type ReplyView,
  type RoomInfo,
  type WebchatMedium,
  type WebchatUser,
} from "./types.js";
export { MAX_MESSAGE_LENGTH, MAX_NAME_LENGTH, webchatEmoji } from "./validate.js";
