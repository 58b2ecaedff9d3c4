/**
 * What Slack sends, as its docs show it (fixtures in `fixtures/`): the Events API's outer
 * envelope and the events the channel follows. Parsed with zod because it comes from the
 * network: a field Slack changes becomes a warning naming it, not a crash or a silent drop.
 */
import { z } from "@chorus/core";

/** Slack message timestamps: seconds and microseconds, as a string (`"1355517523.000005"`). */
export const slackTs = z.string().regex(/^\d+\.\d+$/, "must be a Slack timestamp like 1355517523.000005");

/** Every Events API body (HTTP) and every Socket Mode `events_api` payload. */
export const envelopeSchema = z.object({
  type: z.string().min(1),
  event_id: z.string().optional(),
  event_time: z.number().optional(),
  team_id: z.string().optional(),
  event: z.unknown().optional(),
});

/** `url_verification`, posted when the Request URL is saved in the app config. */
export const urlVerificationSchema = z.object({ type: z.literal("url_verification"), challenge: z.string() });

/** A rich-text element: `user` elements are explicit mentions; the rest is walked for them. */
export interface RichTextElement {
  type?: string;
  user_id?: string;
  elements?: RichTextElement[];
}

/** `message` (`message.channels`, `.groups`, `.im`, `.mpim`) and `app_mention`: the fields the channel reads. */
export const messageEventSchema = z.object({
  type: z.enum(["message", "app_mention"]),
  subtype: z.string().optional(),
  channel: z.string().min(1),
  /** Left out by messages of integrations without a user (`bot_message`), which are not followed. */
  user: z.string().min(1).optional(),
  /** Slack's documented file_share example prints `"bot_id": null` for a person's message. */
  bot_id: z.string().nullish(),
  text: z.string().optional(),
  ts: slackTs,
  thread_ts: slackTs.optional(),
  parent_user_id: z.string().optional(),
  /** `channel`, `group` (private channel), `im` or `mpim`; `app_mention` has none. */
  channel_type: z.string().optional(),
  blocks: z.array(z.unknown()).optional(),
  /** Slack file objects (https://api.slack.com/types/file), read one by one in `attachments.ts`: one odd file spoils no message. */
  files: z.array(z.unknown()).optional(),
  event_ts: z.string().optional(),
});
export type MessageEvent = z.infer<typeof messageEventSchema>;

/** `reaction_added` and `reaction_removed` on a message. */
export const reactionEventSchema = z.object({
  type: z.enum(["reaction_added", "reaction_removed"]),
  user: z.string().min(1),
  /** Slack's emoji name: `thumbsup`, `+1`, `thumbsup::skin-tone-2`, or a custom one. */
  reaction: z.string().min(1),
  /** Left out for messages not authored by a user (incoming webhooks). */
  item_user: z.string().optional(),
  item: z.object({
    type: z.string(),
    channel: z.string().optional(),
    ts: slackTs.optional(),
    channel_type: z.string().optional(),
  }),
  event_ts: z.string(),
});
export type ReactionEvent = z.infer<typeof reactionEventSchema>;

/** A user as `users.info` answers it (the fields the channel reads). */
export interface SlackUser {
  id: string;
  name?: string;
  real_name?: string;
  is_bot?: boolean;
  deleted?: boolean;
  profile?: { display_name?: string; real_name?: string };
}

/** A conversation as `conversations.info` answers it. */
export interface SlackConversation {
  id: string;
  name?: string;
  is_im?: boolean;
  is_mpim?: boolean;
  is_channel?: boolean;
  is_group?: boolean;
  is_private?: boolean;
  /** The other person of a direct message. */
  user?: string;
}

/** One emoji on a message, as `reactions.get` answers it. */
export interface SlackReaction {
  name: string;
  count: number;
  users: string[];
}
