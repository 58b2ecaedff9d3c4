import { ChorusError, type InboundEvent, type MessageRef, mintRef, type RefScope, type z } from "@chorus/core";
import { attachmentsOf } from "./media.js";
import { emojiOf } from "./reactions.js";
import * as wire from "./wire.js";

/**
 * Turns one verified webhook delivery into a normalised event (DESIGN §3); undefined for the
 * bot's own echoes and for event types the bot does not follow. Throws `E_INVALID_INPUT` naming
 * each field it cannot read. There is no deduplication here: a redelivery keeps its delivery
 * `id`, which becomes the `eventId` the gateway drops repeats of.
 */
export function normalizeDelivery(payload: unknown, scope: RefScope): InboundEvent | undefined {
  const delivery = read(wire.acmeDeliverySchema, payload, "delivery");
  if (delivery.type === "message.created") {
    const { conversation, message } = read(wire.messageCreatedSchema, delivery.data, delivery.type);
    // Acme echoes the bot's own messages to its webhook: answering them would loop forever.
    if (message.author.id === scope.botId) return undefined;
    const mentions = message.mentions ?? [];
    const reply = message.reply_to;
    // A file or a pin; the text is then its caption, maybe empty.
    const attachments = attachmentsOf(message);
    return {
      type: "message",
      eventId: delivery.id,
      conversation: normalizeConversation(conversation),
      sender: participant(message.author),
      text: message.text,
      mentions: { bot: mentions.includes(scope.botId), others: mentions.filter((id) => id !== scope.botId) },
      ...(reply && {
        replyTo: {
          messageId: reply.id,
          fromBot: reply.author_id === scope.botId,
          senderId: reply.author_id,
          ...(reply.text !== undefined && { text: reply.text }),
        },
      }),
      ...(attachments.length > 0 && { attachments }),
      ref: messageRef(message, scope),
      timestamp: Date.parse(message.created_at),
    };
  }
  if (delivery.type === "reaction.added" || delivery.type === "reaction.removed") {
    const { conversation, message, user, reaction } = read(wire.reactionChangedSchema, delivery.data, delivery.type);
    if (user.id === scope.botId) return undefined;
    return {
      type: "reaction",
      eventId: delivery.id,
      conversation: normalizeConversation(conversation),
      target: mintRef(scope, { conversationId: conversation.id, messageId: message.id, authorId: message.author_id }),
      // The agent reads 🎉 better than Acme's `party`.
      emoji: emojiOf(reaction),
      action: delivery.type === "reaction.added" ? "added" : "removed",
      actor: participant(user),
      timestamp: Date.parse(delivery.created_at),
    };
  }
  // Acme adds event types over time (`member.joined`); ones the bot does not follow are no error.
  return undefined;
}

/** The `MessageRef` of an Acme message: its id and conversation are all Acme needs to find it again. */
export function messageRef(message: wire.AcmeMessage, scope: RefScope): MessageRef {
  return mintRef(scope, {
    conversationId: message.conversation_id,
    messageId: message.id,
    authorId: message.author.id,
  });
}

function read<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  throw new ChorusError("E_INVALID_INPUT", `unreadable ${what}: ${problems.join("; ")}`);
}

function normalizeConversation(conversation: wire.AcmeConversation) {
  return {
    id: conversation.id,
    kind: conversation.type,
    ...(conversation.name !== undefined && { title: conversation.name }),
    ...(conversation.members && { members: conversation.members.map(participant) }),
  };
}

function participant(user: wire.DeliveredUser) {
  return { id: user.id, ...(user.name ? { name: user.name } : {}), ...(user.bot && { isBot: true }) };
}
