import { CHORUS_API_VERSION, type ChannelCapabilities, type ChannelPlugin, defineChannel } from "@chorus/core";
import { type WebchatConfig, webchatConfigSchema } from "./config.js";
import { createWebchatInstance } from "./instance.js";
import { WebchatSite } from "./site.js";
import { WEBCHAT_CHANNEL_ID } from "./types.js";
import { MAX_MESSAGE_LENGTH } from "./validate.js";

export { WEBCHAT_CHANNEL_ID };

/** What the webchat can do: several reactions per person, clear and list, typing, replies. */
export const WEBCHAT_CAPABILITIES: ChannelCapabilities = Object.freeze<ChannelCapabilities>({
  chatTypes: ["direct", "group"],
  reactions: { clearAll: true, singleSlot: false, tapbackOnly: false, addOnly: false, list: true },
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: false,
  maxTextLength: MAX_MESSAGE_LENGTH,
});

/**
 * The built-in webchat channel plugin. Its "platform" is a hub each instance builds from its
 * context (its state in `ctx.store`) and serves on `site` while it runs, where the gateway's page
 * and socket reach it.
 */
export function createWebchatPlugin(site: WebchatSite = new WebchatSite()): ChannelPlugin<WebchatConfig> {
  return defineChannel<WebchatConfig>({
    id: WEBCHAT_CHANNEL_ID,
    apiVersion: CHORUS_API_VERSION,
    label: "Webchat",
    capabilities: WEBCHAT_CAPABILITIES,
    configSchema: webchatConfigSchema,
    // Its platform is this gateway's hub (rooms, messages, the browsers' sockets): with several
    // gateways it runs on the one holding its lease, where the browsers must connect.
    holdsConnection: () => true,
    create: (ctx) => createWebchatInstance(site, ctx),
  });
}
