export { type WebchatConfig, webchatConfigSchema } from "./config.js";
export { WebchatHub } from "./hub.js";
export type { PostOptions, WebchatHubOptions, WebchatSettings } from "./hub-options.js";
export { toInboundEvents, webchatRef } from "./inbound.js";
export { findMentions } from "./mentions.js";
export { type WebchatPageOptions, webchatPage, webchatPageCsp } from "./page.js";
export { createWebchatPlugin, WEBCHAT_CAPABILITIES, WEBCHAT_CHANNEL_ID } from "./plugin.js";
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
export { attachWebchatSocket, WEBCHAT_SOCKET_PATH, type WebchatSocket, type WebchatSocketOptions } from "./socket.js";
export { STATE_FILE as WEBCHAT_STATE_FILE } from "./state.js";
export {
  BOT_ID,
  type ChatMessageView,
  type HubEvent,
  type HubListener,
  type ReactionChange,
  type ReactionView,
  type ReplyView,
  type RoomInfo,
  type WebchatUser,
} from "./types.js";
export { MAX_MESSAGE_LENGTH, MAX_NAME_LENGTH, webchatEmoji } from "./validate.js";
