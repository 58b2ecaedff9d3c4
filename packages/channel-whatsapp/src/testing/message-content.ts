import { getContentType, normalizeMessageContent, proto } from "@whiskeysockets/baileys";

/** Which message a reply quotes, as its `contextInfo` says. */
export interface QuotedRef {
  stanzaId: string;
  participant?: string;
}

/** What a test usually asserts about a message's content. */
export interface ContentFacts {
  /** The content with ephemeral/view-once/… wrappers removed, as a plain object. */
  message: proto.IMessage;
  /** The content type (`conversation`, `extendedTextMessage`, `imageMessage`, …). */
  type: string | undefined;
  /** Text or caption, when the content has one. */
  text?: string;
  /** `contextInfo.mentionedJid`. */
  mentions: string[];
  quoted?: QuotedRef;
}

/** Reads the facts out of a `proto.Message` as sent or received. */
export function contentFacts(raw: proto.IMessage): ContentFacts {
  const inner = normalizeMessageContent(raw) ?? raw;
  const message = proto.Message.toObject(proto.Message.fromObject(inner), { longs: Number }) as proto.IMessage;
  const type = getContentType(message);
  const body = type
    ? (message[type] as { contextInfo?: proto.IContextInfo | null } | string | null | undefined)
    : undefined;
  const context = typeof body === "object" && body !== null ? (body.contextInfo ?? undefined) : undefined;
  const text = textOf(message);
  const facts: ContentFacts = { message, type, mentions: [...(context?.mentionedJid ?? [])] };
  if (text !== undefined) facts.text = text;
  if (context?.stanzaId) {
    facts.quoted = { stanzaId: context.stanzaId, ...(context.participant ? { participant: context.participant } : {}) };
  }
  return facts;
}

function textOf(message: proto.IMessage): string | undefined {
  return (
    message.conversation ??
    message.extendedTextMessage?.text ??
    message.imageMessage?.caption ??
    message.videoMessage?.caption ??
    message.documentMessage?.caption ??
    undefined
  );
}
