import {
  CHORUS_API_VERSION,
  type ChannelCapabilities,
  type ChannelContext,
  type ChannelInstance,
  type ChannelPlugin,
  type ChannelStatus,
  ChorusError,
  defineChannel,
  type MessageRef,
  type ReactionIntent,
  type ReactionSummary,
  type ReactResult,
  type RefScope,
  splitText,
} from "@chorus/core";
import { type WebchatConfig, webchatConfigSchema } from "./config.js";
import type { WebchatHub } from "./hub.js";
import { toInboundEvents, webchatRef } from "./inbound.js";
import { BOT_ID, type ChatMessageView } from "./types.js";
import { MAX_MESSAGE_LENGTH, webchatEmoji } from "./validate.js";

/** The webchat's channel id. */
export const WEBCHAT_CHANNEL_ID = "webchat";

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

/** The built-in webchat channel plugin, its "platform" being `hub`. */
export function createWebchatPlugin(hub: WebchatHub): ChannelPlugin<WebchatConfig> {
  return defineChannel<WebchatConfig>({
    id: WEBCHAT_CHANNEL_ID,
    apiVersion: CHORUS_API_VERSION,
    label: "Webchat",
    capabilities: WEBCHAT_CAPABILITIES,
    configSchema: webchatConfigSchema,
    // Its platform is this gateway's hub (rooms, messages, the browsers' sockets): with several
    // gateways it runs on the one holding its lease, where the browsers must connect.
    holdsConnection: () => true,
    create: (ctx) => createInstance(hub, ctx),
  });
}

function createInstance(hub: WebchatHub, ctx: ChannelContext<WebchatConfig>): ChannelInstance {
  hub.configure({
    ...(ctx.config.botName !== undefined ? { botName: ctx.config.botName } : {}),
    ...(ctx.config.title !== undefined ? { title: ctx.config.title } : {}),
    ...(ctx.config.keepMessages !== undefined ? { historyLimit: ctx.config.keepMessages } : {}),
  });
  const scope: RefScope = { channel: WEBCHAT_CHANNEL_ID, accountId: ctx.accountId, botId: BOT_ID };
  let unsubscribe: (() => void) | undefined;
  let state: ChannelStatus["state"] = "stopped";

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
      unsubscribe = hub.subscribe((event) => {
        for (const inbound of toInboundEvents(event, hub, scope)) ctx.emit(inbound);
      });
      state = "running";
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = undefined;
      state = "stopped";
      await hub.flush();
    },
    async send(conversation, message) {
      const replyTo = message.replyTo?.messageId;
      // A reply target that aged out of the room's history is dropped, not the reply.
      const replyKept = replyTo !== undefined && hub.message(replyTo)?.room === conversation.id;
      let first: MessageRef | undefined;
      for (const [index, text] of splitText(message.text, MAX_MESSAGE_LENGTH).entries()) {
        const posted = hub.post(conversation.id, BOT_ID, text, {
          ...(index === 0 && replyKept ? { replyTo } : {}),
          ...(index === 0 && message.mentions ? { mentions: message.mentions } : {}),
        });
        first ??= webchatRef(posted, scope);
      }
      return first as MessageRef;
    },
    async react(ref, intent) {
      const message = messageAt(ref);
      return executeIntent(hub, message.id, intent);
    },
    async listReactions(ref): Promise<ReactionSummary[]> {
      const message = messageAt(ref);
      return hub.reactionsOf(message.id).map((reaction) => ({
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
