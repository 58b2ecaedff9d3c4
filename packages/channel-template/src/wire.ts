/**
 * Acme Chat's wire format: what its REST API and webhooks send. Kept apart from the normalised
 * Chorus types so the translation between the two lives in one visible place (`inbound.ts`).
 *
 * Webhook payloads are parsed with zod because they arrive from the network on a public URL;
 * REST answers come from the platform we called and are trusted as typed.
 */
import { z } from "zod";

/** A person or bot on Acme Chat. */
export const acmeUserSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  bot: z.boolean().optional(),
});
export type AcmeUser = z.infer<typeof acmeUserSchema>;

/** A direct or group conversation; groups carry a name and, when Acme includes them, members. */
export const acmeConversationSchema = z.object({
  id: z.string().min(1),
  type: z.enum(["direct", "group"]),
  name: z.string().optional(),
  members: z.array(acmeUserSchema).optional(),
});
export type AcmeConversation = z.infer<typeof acmeConversationSchema>;

/** A message as Acme stores it; `created_at` is ISO 8601. */
export const acmeMessageSchema = z.object({
  id: z.string().min(1),
  conversation_id: z.string().min(1),
  author: acmeUserSchema,
  text: z.string(),
  /** User ids the author mentioned explicitly (Acme resolves `@name` itself). */
  mentions: z.array(z.string()).default([]),
  reply_to: z.object({ id: z.string(), author_id: z.string(), text: z.string().optional() }).optional(),
  created_at: z.iso.datetime({ offset: true }),
});
export type AcmeMessage = z.infer<typeof acmeMessageSchema>;

/** `message.created` data. */
export const messageCreatedSchema = z.object({ conversation: acmeConversationSchema, message: acmeMessageSchema });

/** `reaction.added` / `reaction.removed` data. */
export const reactionChangedSchema = z.object({
  conversation: acmeConversationSchema,
  message: z.object({ id: z.string().min(1), author_id: z.string().min(1) }),
  user: acmeUserSchema,
  emoji: z.string().min(1),
});

/** Every webhook delivery: `id` stays the same when Acme redelivers, `timestamp` is unix seconds. */
export const webhookEnvelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  timestamp: z.number().int(),
  data: z.unknown(),
});

/** A `message.created` delivery. */
export interface AcmeMessageCreated {
  id: string;
  type: "message.created";
  timestamp: number;
  data: z.input<typeof messageCreatedSchema>;
}

/** A `reaction.added` or `reaction.removed` delivery. */
export interface AcmeReactionChanged {
  id: string;
  type: "reaction.added" | "reaction.removed";
  timestamp: number;
  data: z.input<typeof reactionChangedSchema>;
}

/** A webhook delivery as Acme sends it. */
export type AcmeWebhookEvent = AcmeMessageCreated | AcmeReactionChanged;

/** `GET /v1/messages/:id/reactions` → one entry per emoji; `me` says whether the caller is among them. */
export interface AcmeReactionSummary {
  emoji: string;
  count: number;
  me: boolean;
}

/** The body of every failed call: a stable machine code and a human message. */
export interface AcmeErrorBody {
  error: string;
  message?: string;
}
