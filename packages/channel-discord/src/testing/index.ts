/**
 * The fake Discord (REST v10 and gateway WebSocket), exported on `@chorus/channel-discord/testing`
 * so the gateway's end-to-end tests and other authors can drive the real discord.js Client against it.
 */

export { createFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from "./fake-discord.js";
export { FakeGateway, type FakeGatewaySession, Intent, Op } from "./fake-gateway.js";
export {
  emojiKeyOf,
  type FakeChannel,
  FakeDiscordState,
  type FakeEmoji,
  type FakeGuild,
  type FakeMessage,
  type FakeReaction,
  type FakeUser,
} from "./fake-state.js";
