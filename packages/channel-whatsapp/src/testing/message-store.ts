import type { proto } from "@whiskeysockets/baileys";
import { type ContentFacts, contentFacts, type QuotedRef } from "./message-content.js";

/** Who wrote a message: the bot (its Baileys socket), the bot account's owner on their phone, or a person. */
export type MessageOrigin = "bot" | "owner" | "person";

/** A message as WhatsApp holds it; the bot's own are stored as the recipients' devices decrypted them. */
export interface FakeStoredMessage {
  id: string;
  /** A group JID, or the other person's phone-number JID for a direct chat. */
  chat: string;
  /** Phone-number JID of the author (the bot account's JID for `bot` and `owner`). */
  sender: string;
  origin: MessageOrigin;
  fromBot: boolean;
  /** Normalized content (wrappers removed) as a plain object. */
  message: proto.IMessage;
  /** The content exactly as sent, wrappers included. */
  raw: proto.IMessage;
  /** Content type, e.g. `conversation` or `extendedTextMessage`. */
  type: string | undefined;
  text?: string;
  mentions: string[];
  quoted?: QuotedRef;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Set when the author edited it (the content then is the edited one). */
  edited: boolean;
  /** Set when the author deleted it for everyone. */
  revoked: boolean;
}

/** The key of a message as Baileys on the bot's side sees it. */
export interface FakeKey {
  remoteJid: string;
  id: string;
  fromMe: boolean;
  participant?: string;
}

/** A reaction the bot sent, decrypted, with the target key exactly as the bot wrote it. */
export interface SentReaction {
  chat: string;
  key: { remoteJid?: string; id?: string; fromMe?: boolean; participant?: string };
  /** The emoji; empty when the bot removed its reaction. */
  text: string;
  /** Milliseconds since the epoch, when the fake received it. */
  at: number;
}

export interface NewMessage {
  id: string;
  chat: string;
  sender: string;
  origin: MessageOrigin;
  raw: proto.IMessage;
  timestamp: number;
}

/** Chats, their messages, reactions and chat states: what the fake platform holds. */
export class MessageStore {
  readonly #chats = new Map<string, FakeStoredMessage[]>();
  readonly #reactions = new Map<string, Map<string, string>>();
  readonly #chatStates = new Map<string, string[]>();
  readonly botReactions: SentReaction[] = [];

  add(input: NewMessage): FakeStoredMessage {
    const facts: ContentFacts = contentFacts(input.raw);
    const stored: FakeStoredMessage = {
      ...input,
      fromBot: input.origin === "bot",
      ...facts,
      edited: false,
      revoked: false,
    };
    const list = this.#chats.get(input.chat) ?? [];
    list.push(stored);
    this.#chats.set(input.chat, list);
    return stored;
  }

  find(chat: string, id: string): FakeStoredMessage | undefined {
    return this.#chats.get(chat)?.find((message) => message.id === id);
  }

  messagesIn(chat: string): FakeStoredMessage[] {
    return [...(this.#chats.get(chat) ?? [])];
  }

  /** Replaces a message's content after an edit by its author. */
  edit(chat: string, id: string, content: proto.IMessage): void {
    const message = this.find(chat, id);
    if (!message) return;
    Object.assign(message, contentFacts(content), { edited: true });
  }

  revoke(chat: string, id: string): void {
    const message = this.find(chat, id);
    if (message) message.revoked = true;
  }

  /** Sets `reactor`'s single reaction on a message; an empty emoji removes it. */
  react(chat: string, id: string, reactor: string, emoji: string): void {
    const key = reactionKey(chat, id);
    const reactions = this.#reactions.get(key) ?? new Map<string, string>();
    if (emoji === "") reactions.delete(reactor);
    else reactions.set(reactor, emoji);
    this.#reactions.set(key, reactions);
  }

  reactionsOn(chat: string, id: string): Record<string, string> {
    return Object.fromEntries(this.#reactions.get(reactionKey(chat, id)) ?? []);
  }

  recordChatState(chat: string, state: string): void {
    const states = this.#chatStates.get(chat) ?? [];
    states.push(state);
    this.#chatStates.set(chat, states);
  }

  chatStates(chat: string): string[] {
    return [...(this.#chatStates.get(chat) ?? [])];
  }
}

function reactionKey(chat: string, id: string): string {
  return `${chat}\n${id}`;
}
