import { z } from "@chorus/core";

/**
 * BlueBubbles Server's own shapes, as its serialisers write them (bluebubbles-server
 * `packages/server/src/server/api/serializers/{Message,Chat,Handle}Serializer.ts`): the JSON
 * envelope of every REST answer, and the `Message` its webhooks carry
 * (`{ type: "new-message" | "updated-message" | …, data }`, `services/webhookService`).
 * Webhooks serialise "for notification": no `country`/`uncanonicalizedId` on the sender, no
 * `threadOriginatorPart`; `chats` only on `new-message` (never on `updated-message`); a chat's
 * `participants` only for groups (style 43), never for direct chats (style 45).
 */

/** Every REST answer: `{ status, message, data }`, plus `error: { type, message }` on failure. */
export interface BlueBubblesEnvelope<T = unknown> {
  status: number;
  message: string;
  data?: T;
  error?: { type?: string; message?: string };
}

/** A handle: a phone number (`+15551234567`) or an e-mail address (`HandleSerializer`). */
export const handleSchema = z.looseObject({
  address: z.string().min(1),
  service: z.string().nullish(),
  country: z.string().nullish(),
  uncanonicalizedId: z.string().nullish(),
});

/** A chat: `iMessage;-;<handle>` one-to-one (style 45), `iMessage;+;chat<id>` a group (style 43). */
export const chatSchema = z.looseObject({
  guid: z.string().min(1),
  style: z.number().nullish(),
  chatIdentifier: z.string().nullish(),
  displayName: z.string().nullish(),
  /** Only groups carry them, and a payload over 4000 bytes has them emptied. */
  participants: z.array(handleSchema).nullish(),
});

/**
 * An attachment as `AttachmentSerializer.convert` writes it: in webhooks (`isForNotification`)
 * `originalROWID`, `guid`, `uti`, `mimeType`, `transferName`, `totalBytes`, then `height`,
 * `width` and `metadata` (`loadMetadata`); REST answers add `isSticker`, `hideAttachment` and the
 * like. The serializer converts first (HEIC/HEIF/TIFF → JPEG, CAF → "audio/mp3"), so a file the
 * Mac already has says the converted `mimeType` and `transferName` (`IMG_1.heic.jpeg`,
 * `Audio Message.mp3.mp3`) while `uti` and `totalBytes` stay the original's.
 */
export const attachmentSchema = z.looseObject({
  guid: z.string().nullish(),
  uti: z.string().nullish(),
  mimeType: z.string().nullish(),
  transferName: z.string().nullish(),
  totalBytes: z.number().nullish(),
  height: z.number().nullish(),
  width: z.number().nullish(),
  /** `mdls` facts (`duration` in seconds for audio and video); read defensively. */
  metadata: z.unknown().optional(),
  isSticker: z.boolean().nullish(),
  hideAttachment: z.boolean().nullish(),
});

export type BlueBubblesAttachment = z.output<typeof attachmentSchema>;

/** A message row as BlueBubbles serialises it (tapbacks are rows too, pointing at their target). */
export const messageSchema = z.looseObject({
  guid: z.string().min(1),
  /** `universalText`: tapback rows carry text too (`Loved “…”`), never a message of their own. */
  text: z.string().nullish(),
  subject: z.string().nullish(),
  /** The sender; null for the bot's own messages in groups. */
  handle: handleSchema.nullish(),
  isFromMe: z.boolean(),
  dateCreated: z.number().nullish(),
  dateEdited: z.number().nullish(),
  dateRetracted: z.number().nullish(),
  /** Absent on `updated-message`; may be empty when the server had not joined the row to its chat yet. */
  chats: z.array(chatSchema).nullish(),
  /** The tapped message, often `p:<part>/<guid>` or `bp:<guid>`. */
  associatedMessageGuid: z.string().nullish(),
  /**
   * A string from the server's `MessageTypeTransformer` (`love`, `-love`, `sticker`; other chat.db
   * numbers as numeric strings, `"2006"`), or a number from other bridges; null on plain messages.
   */
  associatedMessageType: z.union([z.string(), z.number()]).nullish(),
  /** The emoji of an arbitrary-emoji tapback, where a bridge sends it (BlueBubbles does not). */
  associatedMessageEmoji: z.string().nullish(),
  /** The message this one replies to (inline reply). */
  threadOriginatorGuid: z.string().nullish(),
  /** The `tempGuid` of a message the API sent (its own echo). */
  tempGuid: z.string().nullish(),
  attachments: z.array(attachmentSchema).nullish(),
  /** Only outside notifications (REST answers): the row is an audio message. Webhooks leave it out. */
  isAudioMessage: z.boolean().nullish(),
  /** An app's bubble (`com.apple.messages.URLBalloonProvider` for a link preview), else null. */
  balloonBundleId: z.string().nullish(),
});

export type BlueBubblesHandle = z.output<typeof handleSchema>;
export type BlueBubblesChat = z.output<typeof chatSchema>;
export type BlueBubblesMessage = z.output<typeof messageSchema>;

/** A webhook delivery (`WebhookEvent`): its event name and payload. */
export const webhookBodySchema = z.looseObject({
  type: z.string().min(1),
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

/** One part of `POST /api/v1/message/multipart`: a text, or a file `/attachment/upload` stored (its `path`). */
export type MessagePart = { partIndex: number; text: string } | { partIndex: number; attachment: string; name: string };

/** `POST /api/v1/message/multipart` (Private API): one iMessage of several parts. */
export interface SendMultipartBody {
  chatGuid: string;
  tempGuid: string;
  parts: MessagePart[];
  selectedMessageGuid?: string;
  partIndex?: number;
}

/** The answer of `POST /api/v1/attachment/upload`: where the server keeps the file (`<uuid>/<name>`). */
export interface UploadedAttachment {
  path?: string;
}
