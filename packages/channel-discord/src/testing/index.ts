/**
 * The fake Discord (REST v10, gateway WebSocket and CDN), exported on `@chorus/channel-discord/testing`
 * so the gateway's end-to-end tests and other authors can drive the real discord.js Client against it.
 */

export { attachmentPath, type CdnFile, FakeCdn } from "./fake-cdn.js";
export { createFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from "./fake-discord.js";
export {
  FakeGateway,
  type FakeGatewayOptions,
  type FakeGatewaySession,
  GARBAGE_FRAME,
  type GatewayPayload,
  Intent,
  Op,
} from "./fake-gateway.js";
export { createFakeMedia, type FakeMediaControls, IS_VOICE_MESSAGE, type UserFile } from "./fake-media.js";
export {
  type AttachmentLinks,
  emojiKeyOf,
  type FakeAttachment,
  type FakeChannel,
  FakeDiscordState,
  type FakeEmoji,
  type FakeGuild,
  type FakeMember,
  type FakeMessage,
  type FakeReaction,
  type FakeSticker,
  type FakeUser,
} from "./fake-state.js";
export { imageSize } from "./image-size.js";
export {
  type CreateMessageBody,
  DISCORD_UPLOAD_LIMITS,
  readMessageForm,
  TOO_LARGE,
  type UploadLimits,
} from "./message-form.js";
export { type RestApiDeps, registerRestApi } from "./rest-api.js";
export {
  guildCreate,
  messageCreate,
  reactionEvent,
  readyPayload,
  unreadableMessageCreate,
  wireAttachment,
  wireEmoji,
  wireMember,
  wireMessage,
  wireStickerItem,
  wireUser,
} from "./wire.js";
