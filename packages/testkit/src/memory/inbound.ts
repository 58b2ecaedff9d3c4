import type { InboundEvent, MessageRef, Participant } from "@chorus/core";
import type { WireEvent, WireMessage, WireUser } from "./wire.js";

export interface InboundContext {
  channel: string;
  accountId: string;
  botId: string;
}

/** Turns one platform event into a normalised inbound event; undefined for the bot's own. */
export function toInboundEvent(event: WireEvent, ctx: InboundContext): InboundEvent | undefined {
  const conversation = {
    id: event.conversation.id,
    kind: event.conversation.kind,
    ...(event.conversation.title !== undefined ? { title: event.conversation.title } : {}),
    members: event.conversation.members.map(participant),
    ...(event.message.threadId !== undefined ? { threadId: event.message.threadId } : {}),
  };
  if (event.type === "reaction") {
    if (event.actor.id === ctx.botId) return undefined;
    return {
      type: "reaction",
      eventId: `${ctx.accountId}:${event.seq}`,
      conversation,
      target: messageRef(event.message, ctx),
      emoji: event.reaction.emoji,
      action: event.action,
      actor: participant(event.actor),
      timestamp: Date.now(),
    };
  }
  if (event.sender.id === ctx.botId) return undefined;
  const message = event.message;
  const replied = message.replyTo;
  return {
    type: "message",
    eventId: `${ctx.accountId}:${message.id}`,
    conversation,
    sender: participant(event.sender),
    text: message.text,
    mentions: {
      bot: message.mentions.includes(ctx.botId),
      others: message.mentions.filter((id) => id !== ctx.botId),
    },
    ...(replied
      ? { replyTo: { messageId: replied.id, fromBot: replied.senderId === ctx.botId, senderId: replied.senderId } }
      : {}),
    ref: messageRef(message, ctx),
    timestamp: message.ts,
  };
}

/** The ref of a platform message, as the memory channel mints it. */
export function messageRef(message: WireMessage, ctx: InboundContext): MessageRef {
  return {
    channel: ctx.channel,
    accountId: ctx.accountId,
    conversationId: message.conversationId,
    messageId: message.id,
    ...(message.threadId !== undefined ? { threadId: message.threadId } : {}),
    fromBot: message.senderId === ctx.botId,
  };
}

function participant(user: WireUser): Participant {
  return {
    id: user.id,
    name: user.name,
    ...(user.phone !== undefined ? { e164: user.phone } : {}),
    ...(user.bot ? { isBot: true } : {}),
  };
}
