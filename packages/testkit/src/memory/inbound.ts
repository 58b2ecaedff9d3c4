import {
  ChorusError,
  type InboundEvent,
  type MessageRef,
  mintRef,
  type Participant,
  type RefScope,
  z,
} from "@chorus/core";
import { attachmentsOf } from "./media.js";
import type { WireEvent, WireMessage, WireUser } from "./wire.js";

const userSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  phone: z.string().optional(),
  bot: z.boolean().optional(),
});
const locationSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  name: z.string().optional(),
  address: z.string().optional(),
});
const mediumSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(["image", "video", "audio", "voice", "file", "sticker"]),
  mime: z.string(),
  filename: z.string(),
  size: z.number().int().min(0),
  caption: z.string().optional(),
});
const messageSchema = z.object({
  id: z.string().min(1),
  conversationId: z.string().min(1),
  threadId: z.string().optional(),
  senderId: z.string().min(1),
  text: z.string(),
  mentions: z.array(z.string()),
  replyTo: z.object({ id: z.string(), senderId: z.string() }).optional(),
  ts: z.number(),
  media: z.array(mediumSchema).optional(),
  location: locationSchema.optional(),
  contact: z.object({ name: z.string(), phones: z.array(z.string()).optional() }).optional(),
});
const conversationSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(["direct", "group"]),
  title: z.string().optional(),
  members: z.array(userSchema),
});
const eventSchema = z.discriminatedUnion("type", [
  z.object({
    id: z.string().min(1),
    seq: z.number(),
    type: z.literal("message"),
    message: messageSchema,
    conversation: conversationSchema,
    sender: userSchema,
  }),
  z.object({
    id: z.string().min(1),
    seq: z.number(),
    type: z.literal("reaction"),
    action: z.enum(["added", "removed"]),
    reaction: z.object({ userId: z.string(), emoji: z.string() }),
    message: messageSchema,
    conversation: conversationSchema,
    actor: userSchema,
  }),
]);

/**
 * Turns one platform event into a normalised inbound event; undefined for the bot's own. Throws
 * `E_INVALID_INPUT` naming what is wrong with an event it cannot read.
 */
export function toInboundEvent(raw: unknown, scope: RefScope): InboundEvent | undefined {
  const parsed = eventSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "event"}: ${i.message}`).join("; ");
    throw new ChorusError(
      "E_INVALID_INPUT",
      `event ${String((raw as { seq?: unknown })?.seq)} is unreadable (${problems})`,
    );
  }
  const event = parsed.data as WireEvent;
  const conversation = {
    id: event.conversation.id,
    kind: event.conversation.kind,
    ...(event.conversation.title !== undefined ? { title: event.conversation.title } : {}),
    members: event.conversation.members.map(participant),
    ...(event.message.threadId !== undefined ? { threadId: event.message.threadId } : {}),
  };
  if (event.type === "reaction") {
    if (event.actor.id === scope.botId) return undefined;
    return {
      type: "reaction",
      eventId: event.id,
      conversation,
      target: messageRef(event.message, scope),
      emoji: event.reaction.emoji,
      action: event.action,
      actor: participant(event.actor),
      timestamp: Date.now(),
    };
  }
  if (event.sender.id === scope.botId) return undefined;
  const message = event.message;
  const replied = message.replyTo;
  const attachments = attachmentsOf(message);
  return {
    type: "message",
    eventId: event.id,
    conversation,
    sender: participant(event.sender),
    text: message.text,
    mentions: {
      bot: message.mentions.includes(scope.botId),
      others: message.mentions.filter((id) => id !== scope.botId),
    },
    ...(replied
      ? { replyTo: { messageId: replied.id, fromBot: replied.senderId === scope.botId, senderId: replied.senderId } }
      : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
    ref: messageRef(message, scope),
    timestamp: message.ts,
  };
}

/** The ref of a platform message, as the memory channel mints it. */
export function messageRef(message: WireMessage, scope: RefScope): MessageRef {
  return mintRef(scope, {
    conversationId: message.conversationId,
    messageId: message.id,
    ...(message.threadId !== undefined ? { threadId: message.threadId } : {}),
    authorId: message.senderId,
  });
}

function participant(user: WireUser): Participant {
  return {
    id: user.id,
    name: user.name,
    ...(user.phone !== undefined ? { e164: user.phone } : {}),
    ...(user.bot ? { isBot: true } : {}),
  };
}
