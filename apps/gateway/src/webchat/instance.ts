import { join } from "node:path";
import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelStatus,
  ChorusError,
  type MessageRef,
  type ReactionIntent,
  type ReactionSummary,
  type ReactResult,
  type RefScope,
} from "@chorus/core";
import type { WebchatConfig } from "./config.js";
import { WebchatHub } from "./hub.js";
import { webchatRef } from "./inbound.js";
import { importLegacyMedia } from "./legacy-media.js";
import { importLegacyState } from "./legacy-state.js";
import { createWebchatDownload } from "./media.js";
import { registerMediaRoutes } from "./media-routes.js";
import { WebchatMedia, type WebchatMediaStore } from "./media-store.js";
import { createWebchatOutbound } from "./outbound.js";
import { createWebchatReceiver } from "./receive.js";
import type { WebchatSite } from "./site.js";
import { UploadStaging } from "./staging.js";
import { BOT_ID, type ChatMessageView, WEBCHAT_CHANNEL_ID, type WebchatMedium } from "./types.js";
import { Uploads } from "./uploads.js";
import { webchatEmoji } from "./validate.js";

/**
 * One running webchat: a hub with what `ctx.store` kept (an older version's `webchat.json` and
 * media files imported first), served on `site` from `start` to `stop`; its media are in the
 * gateway's media store (`store`; without one it keeps none), uploaded (staged in
 * `<stateDir>/uploads` while under way) and served by its routes, so any gateway it moves to
 * serves them.
 */
export async function createWebchatInstance(
  site: WebchatSite,
  ctx: ChannelContext<WebchatConfig>,
  store?: WebchatMediaStore,
): Promise<ChannelInstance> {
  await importLegacyState(ctx.store, ctx.logger, ctx.stateDir);
  const media = store ? new WebchatMedia(store) : undefined;
  let uploads: Uploads | undefined;
  if (media) {
    await importLegacyMedia(ctx.store, media, ctx.stateDir, ctx.logger);
    const staging = new UploadStaging(join(ctx.stateDir, "uploads"));
    await staging.ready();
    uploads = new Uploads(staging, media);
  }
  const forget = (dropped: readonly WebchatMedium[]) =>
    void Promise.all(dropped.map((medium) => medium.mediaId && media?.remove(medium.mediaId))).catch((error: unknown) =>
      ctx.logger.warn({ err: error }, "webchat: could not delete the media of messages no longer kept"),
    );
  const hub = await WebchatHub.load({
    store: ctx.store,
    logger: ctx.logger,
    botName: ctx.config.botName ?? site.botName,
    ...(uploads ? { uploads } : {}),
    mediaDropped: forget,
    ...(ctx.config.title !== undefined ? { title: ctx.config.title } : {}),
    ...(ctx.config.keepMessages !== undefined ? { historyLimit: ctx.config.keepMessages } : {}),
  });
  const scope: RefScope = { channel: WEBCHAT_CHANNEL_ID, accountId: ctx.accountId, botId: BOT_ID };
  const receiver = createWebchatReceiver(hub, ctx, scope);
  let unsubscribe: (() => void) | undefined;
  let state: ChannelStatus["state"] = "stopped";
  if (uploads && media) {
    registerMediaRoutes(ctx.http, {
      site,
      uploads,
      media,
      medium: (id) => (site.hub === hub ? hub.medium(id) : undefined),
      logger: ctx.logger,
    });
  }

  const messageAt = (ref: Pick<MessageRef, "conversationId" | "messageId">): ChatMessageView => {
    const message = hub.message(ref.messageId);
    if (!message || message.room !== ref.conversationId) {
      throw new ChorusError(
        "E_MESSAGE_NOT_FOUND",
        `webchat message ${ref.messageId} is not in room ${ref.conversationId} (or is no longer kept)`,
        { hint: `Rooms keep their last ${hub.historyLimit} messages.` },
      );
    }
    return message;
  };

  return {
    async start() {
      unsubscribe?.();
      unsubscribe = hub.subscribe((event) => void receiver.receive(event));
      site.serve(hub);
      state = "running";
    },
    async stop() {
      site.withdraw(hub);
      unsubscribe?.();
      unsubscribe = undefined;
      state = "stopped";
      await hub.flush();
    },
    send: createWebchatOutbound(hub, media, scope),
    ...(media ? { download: createWebchatDownload(media, (id) => hub.medium(id)) } : {}),
    async react(ref, intent) {
      return executeIntent(hub, messageAt(ref).id, intent);
    },
    async listReactions(ref): Promise<ReactionSummary[]> {
      return hub.reactionsOf(messageAt(ref).id).map((reaction) => ({
        emoji: reaction.emoji,
        count: reaction.users.length,
        me: reaction.users.some((user) => user.id === BOT_ID),
      }));
    },
    async setTyping(conversation, on) {
      hub.setTyping(conversation.id, BOT_ID, on);
    },
    async resolveMessageRef(conversation, messageId) {
      return webchatRef(messageAt({ conversationId: conversation.id, messageId }), scope);
    },
    status() {
      if (state !== "running") return { state };
      const people = new Set(hub.rooms().flatMap((room) => room.members.filter((m) => !m.bot).map((m) => m.id)));
      return { state, detail: `chatting as ${hub.bot.name} in ${hub.rooms().length} rooms with ${people.size} people` };
    },
    identity() {
      return { id: hub.bot.id, name: hub.bot.name, isBot: true };
    },
  };
}

/** Carries out core's decision on the bot's own reactions only. */
function executeIntent(hub: WebchatHub, messageId: string, intent: ReactionIntent): ReactResult {
  if (intent.op === "clear") {
    return { ok: true, action: "react", op: "clear", removed: hub.clearReactions(messageId, BOT_ID) };
  }
  const emoji = webchatEmoji(intent.resolved?.bare ?? intent.emoji ?? "");
  if (intent.op === "add") {
    hub.react(messageId, BOT_ID, emoji, true);
    return { ok: true, action: "react", op: "add", emoji };
  }
  const removed = hub.react(messageId, BOT_ID, emoji, false);
  return { ok: true, action: "react", op: "remove", emoji, removed: removed ? [emoji] : [] };
}
