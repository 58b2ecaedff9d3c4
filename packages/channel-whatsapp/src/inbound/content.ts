import { normalizeMessageContent, type proto } from "@whiskeysockets/baileys";

/**
 * The content a person sent, with WhatsApp's wrappers removed: disappearing (`ephemeralMessage`),
 * view-once (v1, v2, v2 extension), `documentWithCaptionMessage`, edits and the like.
 */
export function unwrapContent(message: proto.IMessage | null | undefined): proto.IMessage | undefined {
  return normalizeMessageContent(message) ?? undefined;
}

/**
 * What a person wrote, with a short note for media (`[image] caption`, `[voice message]`), or
 * undefined for content that is not something said (protocol messages, reactions, poll votes,
 * edits' bookkeeping, empty text).
 */
export function textOf(content: proto.IMessage | undefined): string | undefined {
  if (!content) return undefined;
  if (content.reactionMessage || content.protocolMessage || content.pollUpdateMessage) return undefined;
  const said = nonEmpty(content.conversation) ?? nonEmpty(content.extendedTextMessage?.text);
  if (said !== undefined) return said;
  const media = mediaNote(content);
  if (media) return media.detail ? `[${media.kind}] ${media.detail}` : `[${media.kind}]`;
  return undefined;
}

/** The `contextInfo` (mentions, quoted message) of whichever content type carries it. */
export function contextInfoOf(content: proto.IMessage | undefined): proto.IContextInfo | undefined {
  if (!content) return undefined;
  for (const value of Object.values(content)) {
    if (typeof value !== "object" || value === null) continue;
    const info = (value as { contextInfo?: proto.IContextInfo | null }).contextInfo;
    if (info) return info;
  }
  return undefined;
}

/** A person mentioned in a text, and what to show instead of the `@<number>` WhatsApp writes. */
export interface MentionLabel {
  /** The user part of the mentioned JID, as it appears after `@` in the text. */
  readonly user: string;
  /** A name, or the phone number when only the LID was in the text; undefined keeps the text. */
  readonly label?: string | undefined;
}

/** Replaces each `@<user>` placeholder of a mentioned person with `@<label>` where one is known. */
export function resolveMentionPlaceholders(text: string, mentions: readonly MentionLabel[]): string {
  let result = text;
  for (const { user, label } of mentions) {
    if (label === undefined || label === "" || !/^\d+$/.test(user)) continue;
    result = result.replace(new RegExp(`@${user}(?!\\d)`, "g"), () => `@${label}`);
  }
  return result;
}

function mediaNote(content: proto.IMessage): { kind: string; detail?: string } | undefined {
  const caption = (value: string | null | undefined) => nonEmpty(value);
  if (content.imageMessage) return withDetail("image", caption(content.imageMessage.caption));
  if (content.videoMessage) {
    return withDetail(content.videoMessage.gifPlayback ? "GIF" : "video", caption(content.videoMessage.caption));
  }
  if (content.ptvMessage) return { kind: "video note" };
  if (content.documentMessage) {
    const name = nonEmpty(content.documentMessage.fileName) ?? nonEmpty(content.documentMessage.title);
    const kind = name ? `document: ${name}` : "document";
    return withDetail(kind, caption(content.documentMessage.caption));
  }
  if (content.audioMessage) return { kind: content.audioMessage.ptt ? "voice message" : "audio" };
  if (content.stickerMessage) return { kind: "sticker" };
  if (content.locationMessage) {
    const place = nonEmpty(content.locationMessage.name) ?? nonEmpty(content.locationMessage.address);
    return withDetail("location", place);
  }
  if (content.liveLocationMessage) return withDetail("live location", caption(content.liveLocationMessage.caption));
  if (content.contactMessage) return withDetail("contact", nonEmpty(content.contactMessage.displayName));
  if (content.contactsArrayMessage) return withDetail("contacts", nonEmpty(content.contactsArrayMessage.displayName));
  const poll = content.pollCreationMessage ?? content.pollCreationMessageV2 ?? content.pollCreationMessageV3;
  if (poll) return withDetail("poll", nonEmpty(poll.name));
  if (content.eventMessage) return withDetail("event", nonEmpty(content.eventMessage.name));
  const choice =
    nonEmpty(content.buttonsResponseMessage?.selectedDisplayText) ??
    nonEmpty(content.templateButtonReplyMessage?.selectedDisplayText) ??
    nonEmpty(content.listResponseMessage?.title);
  if (choice !== undefined) return { kind: "choice", detail: choice };
  return undefined;
}

function withDetail(kind: string, detail: string | undefined): { kind: string; detail?: string } {
  return detail === undefined ? { kind } : { kind, detail };
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}
