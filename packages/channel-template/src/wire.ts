/**
 * Acme Chat's own JSON, kept apart from Chorus's types so the translation lives in one visible
 * place (`inbound.ts`). Deliveries are parsed with zod: they come from the network, and a field
 * Acme changes must become a warning naming it, not a crash or a silent drop. REST answers come
 * from the server we called and are trusted as typed.
 *
 * Parse what you use, tolerate what you do not: a schema requires only the fields the channel
 * needs to build its event (ids, the text, who wrote it), marks `optional()` every field it has a
 * fallback for (a name: the id; `bot`: absent is a person), and leaves fields it does not read out
 * of the schema (`z.object` lets them through unread), so a delivery the platform's own docs show
 * with a field left out, or one more, is still a message.
 */
import { z } from "@chorus/core";

/** A person or bot; `bot` is left out for people. Without a `name` the id stands in for it. */
export const acmeUserSchema = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  bot: z.boolean().optional(),
});
/** A user as a delivery carries it. */
export type DeliveredUser = z.infer<typeof acmeUserSchema>;
/** A user as the REST answers carry it (`GET /v1/me`): always named. */
export interface AcmeUser {
  id: string;
  name: string;
  bot?: boolean;
}

/** Direct conversations come without `name` and `members`; groups carry members only when Acme has them at hand. */
export const acmeConversationSchema = z.object({
  id: z.string().min(1),
  type: z.enum(["direct", "group"]),
  name: z.string().optional(),
  members: z.array(acmeUserSchema).optional(),
});
export type AcmeConversation = z.infer<typeof acmeConversationSchema>;

/**
 * A file on a message, in Acme's own kinds (it has no audio or stickers). `url` is where the bot
 * downloads it, with its token; `mime_type` and `size` are left out when Acme does not know them.
 */
export const acmeFileSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(["image", "video", "voice", "file"]),
  name: z.string(),
  mime_type: z.string().optional(),
  size: z.number().int().min(0).optional(),
  url: z.url(),
});
export type AcmeFile = z.infer<typeof acmeFileSchema>;

/** A pin; Acme spells the coordinates `lat` and `lng`. */
export const acmeLocationSchema = z.object({ lat: z.number(), lng: z.number(), name: z.string().optional() });
export type AcmeLocation = z.infer<typeof acmeLocationSchema>;

/** A message as Acme stores and delivers it; `created_at` is ISO 8601 with an offset. */
export const acmeMessageSchema = z.object({
  id: z.string().min(1),
  conversation_id: z.string().min(1),
  author: acmeUserSchema,
  text: z.string(),
  /** User ids mentioned explicitly (Acme resolves `@name` itself); left out when nobody was. */
  mentions: z.array(z.string()).optional(),
  reply_to: z.object({ id: z.string(), author_id: z.string(), text: z.string().optional() }).optional(),
  /** At most one file per message; its caption is the message's `text`. */
  file: acmeFileSchema.optional(),
  location: acmeLocationSchema.optional(),
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
