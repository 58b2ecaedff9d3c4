/**
 * Acme Chat's own JSON, kept apart from Chorus's types so the translation lives in one visible
 * place (`inbound.ts`). Deliveries are parsed with zod: they come from the network, and a field
 * Acme changes must become a warning naming it, not a crash or a silent drop. REST answers come
 * from the server we called and are trusted as typed.
 */
import { z } from "zod";

/** A person or bot; `bot` is left out for people. */
export const acmeUserSchema = z.object({ id: z.string().min(1), name: z.string(), bot: z.boolean().optional() });
export type AcmeUser = z.infer<typeof acmeUserSchema>;

/** Direct conversations come without `name` and `members`; groups carry members only when Acme has them at hand. */
export const acmeConversationSchema = z.object({
  id: z.string().min(1),
  type: z.enum(["direct", "group"]),
  name: z.string().optional(),
  members: z.array(acmeUserSchema).optional(),
});
export type AcmeConversation = z.infer<typeof acmeConversationSchema>;

/** A message as Acme stores and delivers it; `created_at` is ISO 8601 with an offset. */
export const acmeMessageSchema = z.object({
  id: z.string().min(1),
  conversation_id: z.string().min(1),
  author: acmeUserSchema,
  text: z.string(),
  /** User ids mentioned explicitly (Acme resolves `@name` itself); left out when nobody was. */
  mentions: z.array(z.string()).optional(),
  reply_to: z.object({ id: z.string(), author_id: z.string(), text: z.string().optional() }).optional(),
  created_at: z.iso.datetime({ offset: true }),
});
export type AcmeMessage = z.infer<typeof acmeMessageSchema>;

/** Every webhook delivery. `id` stays the same when Acme delivers it again. */
export const acmeDeliverySchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  created_at: z.iso.datetime({ offset: true }),
  data: z.unknown(),
});
export type AcmeDelivery = z.infer<typeof acmeDeliverySchema>;

/** `data` of `message.created`. */
export const messageCreatedSchema = z.object({ conversation: acmeConversationSchema, message: acmeMessageSchema });

/** `data` of `reaction.added` and `reaction.removed`; `reaction` is one of Acme's names (`heart`). */
export const reactionChangedSchema = z.object({
  conversation: acmeConversationSchema,
  message: z.object({ id: z.string().min(1), author_id: z.string().min(1) }),
  user: acmeUserSchema,
  reaction: z.string().min(1),
});

/** The body of every refused call. */
export interface AcmeError {
  /** Stable machine code: `already_reacted`, `reaction_not_found`, `unknown_reaction`, … */
  error: string;
  message?: string;
}
