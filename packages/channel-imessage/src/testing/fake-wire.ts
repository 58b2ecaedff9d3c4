import { type FakeResponse, json } from "@chorus/testkit";
import { type FakeAttachment, type FakeBlueBubblesState, type FakeMessage, GROUP_STYLE } from "./fake-state.js";

/**
 * BlueBubbles' wire, as bluebubbles-server writes it: the REST envelope
 * (`api/http/api/v1/responses/{success,errors}.ts`) and the message serialisation
 * (`api/serializers/{Message,Chat,Handle}Serializer.ts`).
 */

/** The error classes of `responses/errors.ts`: status, default message and error type. */
const ERRORS = {
  400: ["You've made a bad request! Please check your request params & body", "Validation Error"],
  401: ["You are not authorized to access this resource", "Authentication Error"],
  404: ["The requested resource was not found", "Database Error"],
  500: ["iMessage has encountered an error", "iMessage Error"],
} as const;

/** A success: `{ status, message, data }` (`data` left out when there is none). */
export function answer(message: string, data?: unknown): FakeResponse {
  return json(200, { status: 200, message, ...(data !== undefined ? { data } : {}) });
}

/** A refusal as the server's `HTTPError`s answer: `{ status, message, error: { type, message } }`. */
export function refuse(status: keyof typeof ERRORS, error: string, message?: string): FakeResponse {
  const [fallback, type] = ERRORS[status];
  return json(status, { status, message: message ?? fallback, error: { type, message: error } });
}

/** How one serialisation is made: for a webhook (`isForNotification`) or a REST answer. */
export interface SerializeOptions {
  /** Webhooks leave out the non-essential fields (`isForNotification: true`). */
  forWebhook: boolean;
  /** `includeChats`: false for `updated-message`, whose payload has no `chats` at all. */
  includeChats: boolean;
  /** `loadChatParticipants`: group chats get their participants (direct chats never do). */
  participants: boolean;
}

/** A message as `MessageSerializer.convert` writes it (a Ventura-or-later server). */
export function serializeMessage(
  state: FakeBlueBubblesState,
  message: FakeMessage,
  options: SerializeOptions,
): Record<string, unknown> {
  const essentials: Record<string, unknown> = {
    originalROWID: message.rowId,
    guid: message.guid,
    text: message.text,
    attributedBody: null,
    handle: message.handle ? handleOf(message.handle, options.forWebhook) : null,
    handleId: message.handle ? 1 : 0,
    otherHandle: 0,
    attachments: (message.attachments ?? []).flatMap((guid) => {
      const attachment = state.attachments.get(guid);
      return attachment ? [serializeAttachment(attachment, options.forWebhook)] : [];
    }),
    subject: null,
    error: 0,
    dateCreated: message.dateCreated,
    dateRead: null,
    dateDelivered: message.isFromMe ? message.dateCreated : null,
    isDelivered: true,
    isFromMe: message.isFromMe,
    hasDdResults: false,
    isArchived: false,
    itemType: 0,
    groupTitle: null,
    groupActionType: 0,
    balloonBundleId: null,
    associatedMessageGuid: message.associatedMessageGuid ?? null,
    associatedMessageType: message.associatedMessageType ?? null,
    expressiveSendStyleId: null,
    threadOriginatorGuid: message.threadOriginatorGuid ?? null,
    hasPayloadData: false,
  };
  const extras = options.forWebhook
    ? {}
    : {
        country: null,
        isDelayed: false,
        isAutoReply: false,
        isSystemMessage: false,
        threadOriginatorPart: null,
        isAudioMessage: message.isAudioMessage === true,
      };
  const chats = options.includeChats ? { chats: chatsOf(state, message, options) } : {};
  const later = { messageSummaryInfo: null, payloadData: null, dateEdited: null, dateRetracted: null, partCount: 1 };
  return { ...essentials, ...extras, ...chats, ...later };
}

/**
 * `AttachmentSerializer.convert` with the default config (`convert`, `loadMetadata`): the server
 * converts first, so a file it converts says the converted `mimeType` and `transferName` while
 * `uti` and `totalBytes` stay the original's; `height`/`width` from `mdls` (0 when it has none) and
 * `metadata` only for images, audio and video (`getAttachmentMetadata` returns nothing for other
 * types, and `undefined` leaves the JSON); outside notifications the flags (`isSticker`, …).
 */
export function serializeAttachment(attachment: FakeAttachment, forWebhook: boolean): Record<string, unknown> {
  const served = attachment.converted ?? attachment;
  const mime = served.mimeType ?? "";
  const media = /^(image|audio|video)\//u.test(mime) || attachment.uti === "com.apple.coreaudio-format";
  const size = served.bytes.byteLength;
  const metadata = mime.startsWith("image/")
    ? { size, ...(attachment.height ? { height: attachment.height, width: attachment.width } : {}) }
    : { bytes: size, ...(attachment.durationSeconds ? { duration: attachment.durationSeconds } : {}) };
  const base: Record<string, unknown> = {
    originalROWID: attachment.rowId,
    guid: attachment.guid,
    uti: attachment.uti,
    mimeType: served.mimeType,
    transferName: served.transferName,
    totalBytes: attachment.bytes.byteLength,
  };
  const flags = forWebhook
    ? {}
    : {
        transferState: 5,
        isOutgoing: attachment.isOutgoing,
        hideAttachment: false,
        isSticker: attachment.isSticker,
        originalGuid: attachment.guid,
        hasLivePhoto: false,
      };
  return {
    ...base,
    ...flags,
    height: attachment.height ?? 0,
    width: attachment.width ?? 0,
    ...(media ? { metadata } : {}),
  };
}

/** An error no handler caught (`ErrorMiddleware`): HTTP 500 "An unhandled error has occurred!". */
export function unhandled(error: string): FakeResponse {
  return json(500, {
    status: 500,
    message: "An unhandled error has occurred!",
    error: { type: "Server Error", message: error },
  });
}

/** `HandleSerializer`: `country` and `uncanonicalizedId` only outside notifications. */
function handleOf(address: string, forWebhook: boolean): Record<string, unknown> {
  const base = { originalROWID: 1, address, service: "iMessage" };
  return forWebhook ? base : { ...base, uncanonicalizedId: null, country: "us" };
}

/** `ChatSerializer` with `includeParticipants: false`; participants added for groups only. */
function chatsOf(state: FakeBlueBubblesState, message: FakeMessage, options: SerializeOptions): unknown[] {
  const chat = state.chats.get(message.chatGuid);
  if (!chat) return [];
  const style = state.styleOf(chat.guid);
  const base: Record<string, unknown> = {
    originalROWID: 1,
    guid: chat.guid,
    style,
    chatIdentifier: chat.guid.split(";").slice(2).join(";"),
    isArchived: false,
    displayName: chat.displayName,
  };
  if (options.participants && style === GROUP_STYLE) {
    // Loaded with `HandleSerializer` outside notification mode: `country` and all.
    base.participants = chat.participants.map((address) => handleOf(address, false));
  }
  return [options.forWebhook ? base : { ...base, isFiltered: false, groupId: null, properties: null }];
}

/** The text chat.db keeps on a tapback row (what BlueBubbles sends as its `text`). */
export function tapbackText(reaction: string, quoted: string): string {
  const removed = reaction.startsWith("-");
  const kind = removed ? reaction.slice(1) : reaction;
  const verbs: Record<string, [string, string]> = {
    love: ["Loved", "a heart"],
    like: ["Liked", "a like"],
    dislike: ["Disliked", "a dislike"],
    laugh: ["Laughed at", "a laugh"],
    emphasize: ["Emphasized", "an exclamation"],
    question: ["Questioned", "a question mark"],
  };
  const verb = verbs[kind];
  if (!verb) return removed ? `Removed ${kind} from “${quoted}”` : `Reacted ${kind} to “${quoted}”`;
  return removed ? `Removed ${verb[1]} from “${quoted}”` : `${verb[0]} “${quoted}”`;
}
