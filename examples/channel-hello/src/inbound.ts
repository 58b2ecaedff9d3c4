import { ChorusError, type InboundEvent, type MessageRef, mintRef, type RefScope, z } from "@chorus/core";

const user = z.object({ id: z.string().min(1), name: z.string() });
const message = z.object({
  id: z.string().min(1),
  conversationId: z.string().min(1),
  senderId: z.string().min(1),
  text: z.string(),
  mentions: z.array(z.string()),
  replyTo: z.object({ id: z.string(), senderId: z.string() }).optional(),
  ts: z.number(),
});
const conversation = z.object({ id: z.string(), kind: z.enum(["direct", "group"]), title: z.string().optional() });
const platformEvent = z.discriminatedUnion("type", [
  z.object({ id: z.string().min(1), type: z.literal("message"), message, conversation, sender: user }),
  z.object({
    id: z.string().min(1),
    type: z.literal("reaction"),
    action: z.enum(["added", "removed"]),
    reaction: z.object({ emoji: z.string() }),
    message,
    conversation,
    actor: user,
  }),
]);

/** A person or bot on the platform. */
export type HelloUser = z.infer<typeof user>;
/** A message as the platform keeps it. */
export type HelloMessage = z.infer<typeof message>;

/**
 * One event of the platform's stream → a normalised event (DESIGN §3); undefined for the bot's
 * own. Throws, naming the fields, for an event it cannot read. Its `id` stays the same when the
 * platform delivers it again, so the gateway drops the repeat.
 */
export function normalizeEvent(raw: unknown, scope: RefScope): InboundEvent | undefined {
  const parsed = platformEvent.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "event"}: ${issue.message}`);
    throw new ChorusError("E_INVALID_INPUT", `unreadable event: ${problems.join("; ")}`);
  }
  const event = parsed.data;
  const { id, kind, title } = event.conversation;
  const where = { id, kind, ...(title !== undefined && { title }) };
  if (event.type === "reaction") {
    if (event.actor.id === scope.botId) return undefined;
    const { action, reaction, actor } = event;
    const target = messageRef(event.message, scope);
    return {
      type: "reaction",
      eventId: event.id,
      conversation: where,
      target,
      emoji: reaction.emoji,
      action,
      actor,
      timestamp: Date.now(),
    };
  }
  const { message: said, sender } = event;
  if (sender.id === scope.botId) return undefined;
  return {
    type: "message",
    eventId: event.id,
    conversation: where,
    sender,
    text: said.text,
    mentions: { bot: said.mentions.includes(scope.botId), others: said.mentions.filter((id) => id !== scope.botId) },
    ...(said.replyTo && {
      replyTo: {
        messageId: said.replyTo.id,
        senderId: said.replyTo.senderId,
        fromBot: said.replyTo.senderId === scope.botId,
      },
    }),
    ref: messageRef(said, scope),
    timestamp: said.ts,
  };
}

/** The `MessageRef` of a platform message: its id and conversation find it again. */
export function messageRef(said: HelloMessage, scope: RefScope): MessageRef {
  return mintRef(scope, { conversationId: said.conversationId, messageId: said.id, authorId: said.senderId });
}
