/**
 * signal-cli's own JSON (the `Json*` records of its `json` package), kept apart from Chorus's
 * types so the translation lives in `inbound.ts`. Received events come from the network and are
 * parsed with zod: a field signal-cli changes becomes a warning naming it. signal-cli writes
 * `null` for an absent plain field and leaves out the optional ones, hence `nullish` and `optional`.
 */
import { z } from "@chorus/core";

const text = z.string().nullish();

/** `JsonMention`: a mention at `start`/`length` in UTF-16 units; the body holds U+FFFC there. */
export const mentionSchema = z.object({
  name: text,
  number: text,
  uuid: text,
  start: z.number().int().min(0),
  length: z.number().int().min(0),
});
export type SignalMention = z.infer<typeof mentionSchema>;

/** `JsonQuote`: the message a reply quotes, by its author and sent timestamp (`id`). */
export const quoteSchema = z.object({
  id: z.number().int(),
  author: text,
  authorNumber: text,
  authorUuid: text,
  text,
});

/** `JsonReaction`: one person's single reaction slot on a message, set or taken back (`isRemove`). */
export const reactionSchema = z.object({
  emoji: z.string().min(1),
  targetAuthor: text,
  targetAuthorNumber: text,
  targetAuthorUuid: text,
  targetSentTimestamp: z.number().int(),
  isRemove: z.boolean(),
});

/** `JsonGroupInfo`: `type` is DELIVER for a message, UPDATE for a change of the group. */
export const groupInfoSchema = z.object({
  groupId: z.string().min(1),
  groupName: text,
  revision: z.number().int().optional(),
  type: text,
});

/**
 * `JsonAttachment`: a file on a message, which the daemon has downloaded (unless it runs with
 * `--ignore-attachments`) and serves by its `id` (`getAttachment`). Every field is written, `null`
 * when unknown; `isVoiceNote` only by signal-cli after 0.14.6 (AsamK/signal-cli#2100): older
 * daemons drop Signal's voice-note flag.
 */
export const attachmentSchema = z.object({
  contentType: text,
  filename: text,
  id: text,
  size: z.number().int().min(0).nullish(),
  width: z.number().int().nullish(),
  height: z.number().int().nullish(),
  caption: text,
  uploadTimestamp: z.number().int().nullish(),
  isVoiceNote: z.boolean().nullish(),
});
export type SignalAttachment = z.infer<typeof attachmentSchema>;

/** `JsonSticker`: a sticker by its pack (hex id) and number in the pack (`getSticker`). */
export const stickerSchema = z.object({
  packId: z.string().min(1),
  stickerId: z.number().int().min(0),
});
export type SignalSticker = z.infer<typeof stickerSchema>;

/** `JsonDataMessage`: a message, a reaction, a deletion … (`message` is null when there is no text). */
export const dataMessageSchema = z.object({
  timestamp: z.number().int(),
  message: text,
  expiresInSeconds: z.number().int().nullish(),
  viewOnce: z.boolean().nullish(),
  reaction: reactionSchema.optional(),
  quote: quoteSchema.optional(),
  mentions: z.array(mentionSchema).optional(),
  attachments: z.array(attachmentSchema).optional(),
  sticker: stickerSchema.optional(),
  remoteDelete: z.unknown().optional(),
  groupInfo: groupInfoSchema.optional(),
});
export type SignalDataMessage = z.infer<typeof dataMessageSchema>;

/** `JsonSyncDataMessage`: what the account sent from another device (the phone), with its destination. */
export const sentMessageSchema = dataMessageSchema.extend({
  destination: text,
  destinationNumber: text,
  destinationUuid: text,
});
export type SignalSentMessage = z.infer<typeof sentMessageSchema>;

/** `JsonMessageEnvelope`: who sent what, when; exactly one of the message kinds is present. */
export const envelopeSchema = z.object({
  source: text,
  sourceNumber: text,
  sourceUuid: text,
  sourceName: text,
  sourceDevice: z.number().int().nullish(),
  timestamp: z.number().int(),
  dataMessage: dataMessageSchema.optional(),
  editMessage: z.unknown().optional(),
  storyMessage: z.unknown().optional(),
  syncMessage: z.object({ sentMessage: sentMessageSchema.optional() }).passthrough().optional(),
  callMessage: z.unknown().optional(),
  receiptMessage: z.unknown().optional(),
  typingMessage: z.unknown().optional(),
});
export type SignalEnvelope = z.infer<typeof envelopeSchema>;

/** The `data` of an SSE `receive` event: the account it is for, the envelope, or why it could not be read. */
export const receiveEventSchema = z.object({
  account: z.string().optional(),
  envelope: envelopeSchema.optional(),
  exception: z.object({ message: text, type: text }).optional(),
});
export type SignalReceiveEvent = z.infer<typeof receiveEventSchema>;

/** `JsonRecipientAddress`. */
export interface SignalAddress {
  uuid: string | null;
  number: string | null;
  username: string | null;
}

/** `JsonSendMessageResult`: how sending to one recipient went. */
export interface SignalSendResult {
  recipientAddress: SignalAddress;
  groupId?: string;
  type:
    | "SUCCESS"
    | "NETWORK_FAILURE"
    | "UNREGISTERED_FAILURE"
    | "IDENTITY_FAILURE"
    | "RATE_LIMIT_FAILURE"
    | "INVALID_PRE_KEY_FAILURE";
  token?: string;
  retryAfterSeconds?: number;
}

/** The result of `send`, `sendReaction` and `sendTyping`: the message's timestamp and each recipient's fate. */
export interface SignalSendResponse {
  timestamp: number;
  results?: SignalSendResult[];
}

/** One group of `listGroups` (`JsonGroup`); members carry no names. */
export interface SignalGroup {
  id: string;
  name: string | null;
  description: string | null;
  isMember: boolean;
  isBlocked: boolean;
  members: { number: string | null; uuid: string | null; isAdmin?: boolean }[];
}

/** One entry of `listContacts` (`JsonContact`), trimmed to what the channel reads. */
export interface SignalContact {
  number: string | null;
  uuid: string | null;
  name: string | null;
  profile?: { givenName: string | null; familyName: string | null } | null;
}

/** A JSON-RPC 2.0 answer of the daemon. */
export interface JsonRpcAnswer {
  jsonrpc: "2.0";
  id: string | number | null;
  result?: unknown;
  error?: JsonRpcError;
}

/** A JSON-RPC error; signal-cli puts the send results in `data.response` when every recipient failed. */
export interface JsonRpcError {
  code: number;
  message: string;
  data?: { response?: Partial<SignalSendResponse> } | null;
}
