/**
 * The fake Discord (REST v10 and gateway WebSocket), exported on `@chorus/channel-discord/testing`
 * so the gateway's end-to-end tests and other authors can drive the real discord.js Client against it.
 */

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
export {
  emojiKeyOf,
  type FakeChannel,
  FakeDiscordState,
  type FakeEmoji,
  type FakeGuild,
  type FakeMember,
  type FakeMessage,
  type FakeReaction,
  type FakeUser,
} from "./fake-state.js";
export { type RestApiDeps, registerRestApi } from "./rest-api.js";
export {
  guildCreate,
  messageCreate,
  reactionEvent,
  readyPayload,
  unreadableMessageCreate,
  wireEmoji,
  wireMember,
  wireMessage,
  wireUser,
} from "./wire.js";
