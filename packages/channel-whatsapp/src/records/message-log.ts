import type { ChannelStore, JsonValue } from "@chorus/core";
import { proto, type WAMessageKey } from "@whiskeysockets/baileys";
import type { WhatsAppMessageAddress } from "../ref.js";

/** How long a message stays in the log: WhatsApp's retry requests come within minutes, quotes within days. */
export const MESSAGE_LOG_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Enough of a message's text to show it as the quoted part of a reply. */
const KEPT_TEXT = 300;

/** A message the instance received or sent: its address, whether the bot sent it, some of its text. */
export interface LoggedMessage extends WhatsAppMessageAddress {
  /** Sent through Chorus (as opposed to received, or typed by the owner on the phone). */
  readonly fromBot: boolean;
  readonly text?: string;
}

/** What the store keeps per message: the address and, for the bot's own sends, their content. */
type StoredMessage = LoggedMessage & { readonly content?: JsonValue };

/**
 * The messages this account saw and sent, in the channel's store under
 * `messages/<chat>/<id>` for `MESSAGE_LOG_TTL_MS`. WhatsApp has no "fetch a message" call, so
 * this record is what completes a group message's author for reactions and quotes, what
 * recognises the bot's own messages, and what Baileys' `getMessage` answers a recipient's retry
 * request with (the content of a message the bot sent), also after a restart.
 */
export class MessageLog {
  constructor(
    private readonly store: ChannelStore,
    private readonly ttlMs: number = MESSAGE_LOG_TTL_MS,
  ) {}

  /** The store key of a message. */
  static key(remoteJid: string, id: string): string {
    return `messages/${encodeURIComponent(remoteJid)}/${encodeURIComponent(id)}`;
  }

  /** A message of a chat, when it was seen or sent. */
  async get(remoteJid: string, id: string): Promise<LoggedMessage | undefined> {
    const stored = readLogged(await this.store.get(MessageLog.key(remoteJid, id)));
    if (!stored) return undefined;
    const { content: _content, ...message } = stored;
    return message;
  }

  /** Which of `ids` (messages of `remoteJid`) the bot sent. */
  async sentByBot(remoteJid: string, ids: readonly (string | null | undefined)[]): Promise<Set<string>> {
    const sent = new Set<string>();
    for (const id of new Set(ids)) {
      if (id && (await this.get(remoteJid, id))?.fromBot) sent.add(id);
    }
    return sent;
  }

  /** Records a message; `content` (a message the bot sent) is kept for retry requests. */
  async record(message: LoggedMessage, content?: proto.IMessage | null): Promise<void> {
    const text = message.text === undefined ? undefined : message.text.slice(0, KEPT_TEXT);
    const stored: StoredMessage = {
      ...message,
      ...(text !== undefined ? { text } : {}),
      ...(content ? { content: encodeContent(content) } : {}),
    };
    await this.store.set(MessageLog.key(message.remoteJid, message.id), stored as unknown as JsonValue, {
      ttlMs: this.ttlMs,
    });
  }

  /** Baileys' `getMessage`: the content of a message the bot sent, while it is logged. */
  async content(key: WAMessageKey): Promise<proto.IMessage | undefined> {
    if (!key.remoteJid || !key.id) return undefined;
    const stored = readLogged(await this.store.get(MessageLog.key(key.remoteJid, key.id)));
    return stored?.content === undefined ? undefined : proto.Message.fromObject(stored.content as object);
  }
}

/** Protobuf's JSON form of a message: bytes as base64, 64-bit numbers as strings. */
function encodeContent(content: proto.IMessage): JsonValue {
  const message = proto.Message.fromObject(content as Record<string, unknown>);
  return proto.Message.toObject(message, { bytes: String, longs: String }) as JsonValue;
}

/** A stored message, or undefined for a value of another shape. */
export function readLogged(value: unknown): StoredMessage | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const valid =
    typeof record.remoteJid === "string" &&
    typeof record.id === "string" &&
    typeof record.fromMe === "boolean" &&
    typeof record.fromBot === "boolean" &&
    (record.participant === undefined || typeof record.participant === "string") &&
    (record.text === undefined || typeof record.text === "string");
  return valid ? (record as unknown as StoredMessage) : undefined;
}
