/**
 * Feishu's own JSON, kept apart from Chorus's types so the translation lives in `inbound.ts`.
 * Events come from the network (the long connection or a webhook) and are parsed with zod: a
 * field Feishu changes must become a warning naming it, not a crash or a silent drop. Open API
 * answers come from the server we called and are trusted as typed.
 *
 * Events reach the handlers as the SDK's `EventDispatcher` hands them over: the schema 2.0
 * envelope `{ schema, header, event }` flattened into one object (`event_id` beside `message`).
 */
import { z } from "@chorus/core";

/** The three ids Feishu gives a person; which ones are present depends on the app's scopes. */
export const userIdSchema = z.object({
  open_id: z.string().optional(),
  union_id: z.string().optional(),
  user_id: z.string().optional(),
});
export type FeishuUserIds = z.infer<typeof userIdSchema>;

/** One `@` in a received message: `key` is the placeholder (`@_user_1`) in its content. */
export const eventMentionSchema = z.object({
  key: z.string().min(1),
  id: userIdSchema.optional(),
  name: z.string().optional(),
  mentioned_type: z.string().optional(),
  tenant_key: z.string().optional(),
});
export type FeishuEventMention = z.infer<typeof eventMentionSchema>;

/** `im.message.receive_v1`, flattened by the SDK (header fields beside `sender` and `message`). */
export const messageReceiveSchema = z.object({
  event_id: z.string().min(1),
  create_time: z.string().optional(),
  sender: z.object({
    sender_id: userIdSchema.optional(),
    sender_type: z.string(),
    tenant_key: z.string().optional(),
  }),
  message: z.object({
    message_id: z.string().min(1),
    root_id: z.string().optional(),
    parent_id: z.string().optional(),
    thread_id: z.string().optional(),
    create_time: z.string().regex(/^\d+$/u, "expected milliseconds as a string"),
    chat_id: z.string().min(1),
    /** `p2p` or `group` (topic groups too). */
    chat_type: z.string().min(1),
    /** `text`, `post`, `image`, `file`, `interactive`, … */
    message_type: z.string().min(1),
    /** The content as a JSON string, shaped by `message_type`. */
    content: z.string(),
    mentions: z.array(eventMentionSchema).optional(),
  }),
});
export type MessageReceiveEvent = z.infer<typeof messageReceiveSchema>;

/** `im.message.reaction.created_v1` and `deleted_v1`, flattened by the SDK. No chat id: it is looked up. */
export const reactionEventSchema = z.object({
  event_id: z.string().min(1),
  message_id: z.string().min(1),
  reaction_type: z.object({ emoji_type: z.string().min(1) }),
  /** `user` or `app`: an app's reactions carry its `app_id` instead of `user_id`. */
  operator_type: z.string().min(1),
  user_id: userIdSchema.optional(),
  app_id: z.string().optional(),
  action_time: z.string().optional(),
});
export type ReactionEvent = z.infer<typeof reactionEventSchema>;

/** A message as the Open API returns it (create, reply, get). */
export interface FeishuMessage {
  message_id: string;
  root_id?: string;
  parent_id?: string;
  thread_id?: string;
  msg_type: string;
  create_time: string;
  update_time?: string;
  deleted?: boolean;
  updated?: boolean;
  chat_id: string;
  /** A person (`open_id`, `user`) or an app (`app_id`, `app`). */
  sender: { id: string; id_type: string; sender_type: string; tenant_key?: string };
  body?: { content: string };
  mentions?: { key: string; id: string; id_type?: string; name?: string; tenant_key?: string }[];
}

/** One reaction record. `operator_id` is the app id when `operator_type` is `app`. */
export interface FeishuReaction {
  reaction_id: string;
  operator: { operator_id: string; operator_type: string };
  action_time: string;
  reaction_type: { emoji_type: string };
}

/** One page of a listing (reactions, chat members). */
export interface FeishuPage<T> {
  items?: T[];
  has_more?: boolean;
  page_token?: string;
}

/** `GET /open-apis/im/v1/chats/:chat_id`: the fields this channel reads. */
export interface FeishuChat {
  name?: string;
  description?: string;
  /** `group`, `topic` or `p2p`. */
  chat_mode?: string;
  chat_type?: string;
  user_count?: string;
}

/** One member of a chat (people only: Feishu leaves bots out of this list). */
export interface FeishuChatMember {
  member_id_type: string;
  member_id: string;
  name?: string;
  tenant_key?: string;
}

/** `GET /open-apis/contact/v3/users/:user_id`: the fields this channel reads. */
export interface FeishuUser {
  open_id?: string;
  name?: string;
  en_name?: string;
  nickname?: string;
}

/** `GET /open-apis/bot/v3/info`: who the app's bot is. */
export interface FeishuBotInfo {
  open_id: string;
  app_name: string;
  activate_status?: number;
}
