import { z } from "zod";

/**
 * BlueBubbles Server's own shapes: the JSON envelope of every REST answer, and the `Message`
 * serialisation its webhooks carry (`{ type: "new-message" | "updated-message", data: Message }`).
 */

/** Every REST answer: `{ status, message, data }`, plus `error: { type, message }` on failure. */
export interface BlueBubblesEnvelope<T = unknown> {
  status: number;
  message: string;
  data?: T;
  error?: { type?: string; message?: string };
}

/** A handle: a phone number (`+15551234567`) or an e-mail address. */
export const handleSchema = z.looseObject({
  address: z.string().min(1),
  country: z.string().nullish(),
  uncanonicalizedId: z.string().nullish(),
});

/** A chat: `iMessage;-;<handle>` for one-to-one, `iMessage;+;chat<id>` for groups. */
export const chatSchema = z.looseObject({
  guid: z.string().min(1),
  displayName: z.string().nullish(),
  chatIdentifier: z.string().nullish(),
  style: z.number().nullish(),
  participants: z.array(handleSchema).nullish(),
});

/** A message row as BlueBubbles serialises it (tapbacks are messages too). */
export const messageSchema = z.looseObject({
  guid: z.string().min(1),
  text: z.string().nullish(),
  subject: z.string().nullish(),
  handle: handleSchema.nullish(),
  isFromMe: z.boolean().default(false),
  dateCreated: z.number().nullish(),
  dateEdited: z.number().nullish(),
  chats: z.array(chatSchema).nullish(),
  /** The tapped message, often `p:<part>/<guid>` or `bp:<guid>`. */
  associatedMessageGuid: z.string().nullish(),
  /** `love` / `-love` (the server's transformer), or 2000–2006 / 3000–3006 as in chat.db. */
  associatedMessageType: z.union([z.string(), z.number()]).nullish(),
  /** The emoji of an arbitrary-emoji tapback (macOS 15+), when `associatedMessageType` is `emoji`. */
  associatedMessageEmoji: z.string().nullish(),
  /** The message this one replies to (inline reply). */
  threadOriginatorGuid: z.string().nullish(),
  threadOriginatorPart: z.string().nullish(),
  attachments: z.array(z.looseObject({ transferName: z.string().nullish() })).nullish(),
});

export type BlueBubblesHandle = z.output<typeof handleSchema>;
export type BlueBubblesChat = z.output<typeof chatSchema>;
export type BlueBubblesMessage = z.output<typeof messageSchema>;

/** A webhook delivery. */
export const webhookBodySchema = z.looseObject({
  type: z.string(),
  data: z.unknown(),
});

/** `GET /api/v1/server/info`, the fields the plugin reads. */
export interface ServerInfo {
  server_version?: string;
  os_version?: string;
  private_api?: boolean;
  helper_connected?: boolean;
  detected_icloud?: string;
  detected_imessage?: string;
}

/** A registered webhook (`GET /api/v1/webhook`). */
export interface WebhookEntry {
  id: number;
  url: string;
  events: string[];
}

/** `POST /api/v1/message/text`. */
export interface SendTextBody {
  chatGuid: string;
  tempGuid: string;
  message: string;
  method: "apple-script" | "private-api";
  selectedMessageGuid?: string;
  partIndex?: number;
}

/** `POST /api/v1/message/react`. */
export interface ReactBody {
  chatGuid: string;
  selectedMessageGuid: string;
  reaction: string;
  partIndex: number;
}
