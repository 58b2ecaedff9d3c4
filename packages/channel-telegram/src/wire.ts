import { z } from "@chorus/core";
import type { Update } from "grammy/types";

/*
 * The parts of a Bot API update this plugin reads (https://core.telegram.org/bots/api#update):
 * only what building an event needs is required (an update's id; a message's id, date and chat
 * id; a reaction's lists), everything else may be missing and anything unknown is let through
 * (`looseObject`), so a field Telegram adds, or leaves out, never makes an update unreadable.
 * Telegram's own examples (https://core.telegram.org/bots/webhooks#testing-your-bot-with-updates)
 * leave out `is_bot` on users and, in the first, `type` on the chat: a user without `is_bot` is a
 * person, a chat without `type` is typed by its id (`chatType` in `inbound.ts`), and a user without
 * `first_name` is known by username or id.
 */

const id = z.number().int();
const user = z.looseObject({ id, is_bot: z.boolean().optional(), first_name: z.string().optional() });
const chat = z.looseObject({ id, type: z.string().optional() });
const entity = z.looseObject({ type: z.string(), offset: z.number().int(), length: z.number().int() });
const reactionType = z.looseObject({ type: z.string() });
// A file object: `file_id` is what a download needs; `file_unique_id` is missing from Telegram's oldest examples.
const fileFields = {
  file_id: z.string(),
  file_unique_id: z.string().optional(),
  file_size: z.number().int().nonnegative().optional(),
};
const fileObject = z.looseObject(fileFields);
const location = z.looseObject({ latitude: z.number(), longitude: z.number() });

/** The media a message can carry (`attachments.ts` reads them); an album's items share `media_group_id`. */
const mediaFields = {
  photo: z.array(z.looseObject({ ...fileFields, width: id, height: id })).optional(),
  animation: fileObject.optional(),
  video: fileObject.optional(),
  video_note: fileObject.optional(),
  audio: fileObject.optional(),
  voice: fileObject.optional(),
  document: fileObject.optional(),
  sticker: fileObject.optional(),
  location: location.optional(),
  venue: z.looseObject({ location, title: z.string(), address: z.string() }).optional(),
  contact: z.looseObject({ phone_number: z.string(), first_name: z.string() }).optional(),
};

const messageFields = {
  message_id: id,
  date: id,
  chat,
  from: user.optional(),
  sender_chat: chat.optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  entities: z.array(entity).optional(),
  caption_entities: z.array(entity).optional(),
  message_thread_id: id.optional(),
  media_group_id: z.string().optional(),
  ...mediaFields,
};

const message = z.looseObject({
  ...messageFields,
  // Telegram does not nest replies: the message replied to carries no reply of its own. Only its id
  // is needed (its author and text are context when there).
  reply_to_message: z
    .looseObject({
      message_id: id,
      from: user.optional(),
      text: z.string().optional(),
      caption: z.string().optional(),
      ...mediaFields,
    })
    .optional(),
});

const update = z.looseObject({
  update_id: id.nonnegative(),
  message: message.optional(),
  message_reaction: z
    .looseObject({
      chat,
      message_id: id,
      date: id,
      user: user.optional(),
      actor_chat: chat.optional(),
      old_reaction: z.array(reactionType),
      new_reaction: z.array(reactionType),
    })
    .optional(),
});

/** An update as read: the update itself, or what is wrong with it (and its id, when it has one). */
export type ReadUpdate = { update: Update } | { problem: string; updateId?: number };

/** Checks that a payload is an update this plugin can read, naming what is wrong when it is not. */
export function readUpdate(payload: unknown): ReadUpdate {
  const result = update.safeParse(payload);
  if (result.success) return { update: payload as Update };
  const updateId = (payload as { update_id?: unknown } | null)?.update_id;
  const problem = result.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "the update"}: ${issue.message}`)
    .join("; ");
  return { problem, ...(typeof updateId === "number" ? { updateId } : {}) };
}

/** The kind of an update (`message`, `message_reaction`, …): its one field besides `update_id`. */
export function updateKind(update: Update): string {
  return Object.keys(update).find((key) => key !== "update_id") ?? "empty";
}
