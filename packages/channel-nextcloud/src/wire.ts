import { z } from "@chorus/core";

/**
 * Nextcloud Talk's own shapes: the Activity Streams 2.0 bodies of bot webhooks (spreed
 * `docs/bots.md`, built by `lib/Service/BotService.php` with `ActivityPubHelper`) and the OCS
 * envelope of its API answers. Only what the plugin reads is required; every object is loose, so
 * fields a newer Talk adds never make a hook unreadable.
 */

/** What a field held, for a problem report: short scalars as they are, anything else by its kind. */
function received(input: unknown): string {
  if (input === undefined) return "nothing";
  if (input === null || typeof input === "number" || typeof input === "boolean") return String(input);
  if (typeof input === "string") return input.length <= 24 ? JSON.stringify(input) : "a long string";
  return Array.isArray(input) ? "an array" : `a ${typeof input}`;
}

/**
 * `actor.talkParticipantType` (Talk 21+): the attendee's participant type (1 owner, 2 moderator,
 * 3 user, 4 guest, 5 self-joined user, 6 guest moderator). Talk sends it as a numeric *string*
 * (`ActivityPubHelper::generatePersonFromAttendee` casts it); a number is accepted too.
 */
export const participantTypeSchema = z.union([z.number().int(), z.string().regex(/^\d+$/u).transform(Number)], {
  error: (issue) =>
    `expected a participant type (a number, or a numeric string such as "3"), received ${received(issue.input)}`,
});

/** `users/ada`, `guests/<hash>`, `bots/bot-<sha1>`, … with the display name. */
export const talkActorSchema = z.looseObject({
  type: z.string(),
  id: z.string().min(1),
  name: z.string().default(""),
  talkParticipantType: participantTypeSchema.optional(),
});
export type TalkActor = z.output<typeof talkActorSchema>;

/**
 * A chat message (`Note`); `id` is a numeric string, `content` a JSON string `{message, parameters}`.
 * `name` is `message` for written messages; Talk 21–22 sent `""` for messages with attachments.
 */
export const talkNoteSchema = z.looseObject({
  type: z.literal("Note"),
  id: z
    .union([z.string().min(1), z.number()], {
      error: (issue) => `expected the message id (a numeric string), received ${received(issue.input)}`,
    })
    .transform(String),
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

/** A message someone wrote; `object.inReplyTo` (Talk 21+) is the message it quotes. */
export const talkCreateSchema = z.looseObject({
  type: z.literal("Create"),
  actor: talkActorSchema,
  object: talkNoteSchema.extend({
    inReplyTo: z.looseObject({ actor: talkActorSchema, object: talkNoteSchema }).optional(),
  }),
  target: talkCollectionSchema,
});
export type TalkCreate = z.input<typeof talkCreateSchema>;

/**
 * A system message (`BotService::afterSystemMessageSent`): the actor without a participant type,
 * `object.name` the system message's identifier. A shared file or location is a system message in
 * spreed (`file_shared`, `object_shared`, `ChatManager::addSystemMessage`), read as a message when
 * its content carries one.
 */
export const talkActivitySchema = talkCreateSchema.extend({ type: z.literal("Activity") });
export type TalkActivity = z.input<typeof talkActivitySchema>;

/** A reaction added (Talk 21+, the bot's `reaction` feature); `content` is the emoji. */
export const talkLikeSchema = z.looseObject({
  type: z.literal("Like"),
  actor: talkActorSchema,
  object: talkNoteSchema,
  target: talkCollectionSchema,
  content: z.string().min(1),
});
export type TalkLike = z.input<typeof talkLikeSchema>;

/** A reaction taken back; `object` is the whole `Like` hook. */
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

/** A number Talk may send as a string (`"48213"`): PHP casts sizes and dimensions with `(string)`. */
const numeric = z.union([
  z.number(),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/u)
    .transform(Number),
]);

/**
 * The `file` rich object of a shared file, as spreed's `SystemMessage::getFileFromShare` builds it
 * for the author: `id` (the file id), `name`, `size` (a string since Talk 19, a number before),
 * `path` (in the author's files), `link` (`/f/<id>`, needs a login), `mimetype`, and `width`/`height`
 * for images with metadata. Only `id` and `name` are required; the rest is taken where it is sound.
 */
export const fileParameterSchema = z.looseObject({
  type: z.literal("file"),
  id: z.union([z.string().min(1), z.number()]).transform(String),
  name: z.string().default(""),
  size: numeric.optional().catch(undefined),
  path: z.string().optional().catch(undefined),
  link: z.string().optional().catch(undefined),
  mimetype: z.string().optional().catch(undefined),
  width: numeric.optional().catch(undefined),
  height: numeric.optional().catch(undefined),
});
export type FileParameter = z.output<typeof fileParameterSchema>;

/**
 * The `geo-location` rich object of a shared location (`object_shared`, server
 * `RichObjectStrings/Definitions.php`): `id` a `geo:` URI, `name`, `latitude`/`longitude` strings.
 */
export const geoParameterSchema = z.looseObject({
  type: z.literal("geo-location"),
  id: z.string(),
  name: z.string().default(""),
  latitude: numeric.optional().catch(undefined),
  longitude: numeric.optional().catch(undefined),
});
export type GeoParameter = z.output<typeof geoParameterSchema>;

/** What `object.content` holds once parsed; PHP encodes empty `parameters` as `[]`. */
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
