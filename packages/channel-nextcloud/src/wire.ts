import { z } from "zod";

/**
 * Nextcloud Talk's own shapes: the Activity Streams 2.0 bodies of bot webhooks
 * (spreed `docs/bots.md`) and the OCS envelope of its API answers.
 */

/** `users/ada`, `guests/<hash>`, `bots/bot-<sha1>`, … with the display name. */
export const talkActorSchema = z.looseObject({
  type: z.string(),
  id: z.string().min(1),
  name: z.string().default(""),
  talkParticipantType: z.number().optional(),
});
export type TalkActor = z.output<typeof talkActorSchema>;

/** A chat message (`Note`); `content` is a JSON string `{message, parameters}`. */
export const talkNoteSchema = z.looseObject({
  type: z.literal("Note"),
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string().default("message"),
  content: z.string(),
  mediaType: z.string().optional(),
});
export type TalkNote = z.output<typeof talkNoteSchema>;

/** The conversation: `id` is its token, `name` its name (one-to-one: a JSON list of the two user ids). */
export const talkCollectionSchema = z.looseObject({
  type: z.literal("Collection"),
  id: z.string().min(1),
  name: z.string().default(""),
});
export type TalkCollection = z.output<typeof talkCollectionSchema>;

export const talkCreateSchema = z.looseObject({
  type: z.literal("Create"),
  actor: talkActorSchema,
  object: talkNoteSchema.extend({
    inReplyTo: z.looseObject({ actor: talkActorSchema, object: talkNoteSchema }).optional(),
  }),
  target: talkCollectionSchema,
});
export type TalkCreate = z.input<typeof talkCreateSchema>;

export const talkLikeSchema = z.looseObject({
  type: z.literal("Like"),
  actor: talkActorSchema,
  object: talkNoteSchema,
  target: talkCollectionSchema,
  content: z.string().min(1),
});
export type TalkLike = z.input<typeof talkLikeSchema>;

export const talkUndoSchema = z.looseObject({
  type: z.literal("Undo"),
  actor: talkActorSchema,
  object: talkLikeSchema,
  target: talkCollectionSchema,
});
export type TalkUndo = z.input<typeof talkUndoSchema>;

/** The bot was added to (`Join`) or removed from (`Leave`) a conversation. */
export const talkMembershipSchema = z.looseObject({
  type: z.enum(["Join", "Leave"]),
  actor: talkActorSchema,
  object: talkCollectionSchema,
});
export type TalkMembership = z.input<typeof talkMembershipSchema>;

/** Any webhook body Talk sends a bot (`Activity` is a system message). */
export type TalkWebhookBody = TalkCreate | TalkLike | TalkUndo | TalkMembership | { type: string };

/** A rich object parameter of a message (`mention-user1`, `file`, …). */
export const richParameterSchema = z.looseObject({
  type: z.string(),
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string().default(""),
});
export type RichParameter = z.output<typeof richParameterSchema>;

/** What `object.content` holds once parsed. */
export const noteContentSchema = z.object({
  message: z.string(),
  parameters: z
    .union([z.record(z.string(), z.unknown()), z.array(z.unknown())])
    .transform((value) => (Array.isArray(value) ? {} : value))
    .default({}),
});

/** The OCS envelope every `/ocs/v2.php` answer comes in when asked for JSON. */
export interface OcsEnvelope<T = unknown> {
  ocs: { meta: { status: string; statuscode: number; message?: string }; data: T };
}
