import {
  CHORUS_API_VERSION,
  type ChannelCapabilities,
  type ChannelPlugin,
  defineChannel,
  type MediaCapabilities,
} from "@chorus/core";
import { type WebchatConfig, webchatConfigSchema } from "./config.js";
import { createWebchatInstance } from "./instance.js";
import { MAX_ATTACHMENTS, MAX_MEDIUM_BYTES, UPLOAD_KINDS } from "./media-kinds.js";
import type { WebchatMediaStore } from "./media-store.js";
import { WebchatSite } from "./site.js";
import { WEBCHAT_CHANNEL_ID } from "./types.js";
import { MAX_MESSAGE_LENGTH } from "./validate.js";

export { WEBCHAT_CHANNEL_ID };

/**
 * Media both ways (DESIGN §2.6): every kind, shown in the page (pictures inline, audio and video
 * with players, other files to download, a location as a pin with a map link), a caption as the
 * message's text, ten items a message. The webchat's "platform" is this gateway: a medium is in the
 * gateway's media store, uploaded and loaded by the page over the gateway's own HTTP, so no
 * platform sets a limit. It takes 25 MiB an item, the gateway's default `media.maxBytes`: what the
 * gateway's store takes by default the webchat shows and accepts (a larger `media.maxBytes` does
 * not raise it).
 */
export const WEBCHAT_MEDIA: MediaCapabilities = Object.freeze<MediaCapabilities>({
  send: [...UPLOAD_KINDS, "location"],
  receive: [...UPLOAD_KINDS, "location"],
  maxSendBytes: MAX_MEDIUM_BYTES,
  maxReceiveBytes: MAX_MEDIUM_BYTES,
  caption: true,
  perMessage: MAX_ATTACHMENTS,
});

/** What the webchat can do: several reactions per person, clear and list, typing, replies, media. */
export const WEBCHAT_CAPABILITIES: ChannelCapabilities = Object.freeze<ChannelCapabilities>({
  chatTypes: ["direct", "group"],
  reactions: { clearAll: true, singleSlot: false, tapbackOnly: false, addOnly: false, list: true },
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: false,
  maxTextLength: MAX_MESSAGE_LENGTH,
  media: WEBCHAT_MEDIA,
});

/**
 * The built-in webchat channel plugin. Its "platform" is a hub each instance builds from its
 * context (its state in `ctx.store`) and serves on `site` while it runs, where the gateway's page
 * and socket reach it. Its media are in `options.media`, the gateway's media store (without one it
 * keeps no media: text only).
 */
export function createWebchatPlugin(
  site: WebchatSite = new WebchatSite(),
  options: { media?: WebchatMediaStore | undefined } = {},
): ChannelPlugin<WebchatConfig> {
  return defineChannel<WebchatConfig>({
    id: WEBCHAT_CHANNEL_ID,
    apiVersion: CHORUS_API_VERSION,
    label: "Webchat",
    capabilities: WEBCHAT_CAPABILITIES,
    configSchema: webchatConfigSchema,
    // Its platform is this gateway's hub (rooms, messages, the browsers' sockets): with several
    // gateways it runs on the one holding its lease, where the browsers must connect.
    holdsConnection: () => true,
    create: (ctx) => createWebchatInstance(site, ctx, options.media),
  });
}
