import { CachedLookup } from "@chorus/channel-kit";
import { type ChatType, ChorusError, isChorusError, type Participant } from "@chorus/core";
import type { FeishuApi } from "./api.js";
import { plainText } from "./content.js";
import type { FeishuMessage } from "./wire.js";

/** What the channel knows about a chat. */
export interface ChatFacts {
  kind: ChatType;
  title?: string;
  /** The people in it (Feishu leaves bots out); absent when the app may not list them. */
  members?: Participant[];
}

/** What the channel knows about one message: where it is and whose it is. */
export interface MessageFacts {
  chatId: string;
  threadId?: string;
  /** The author's open_id, or the app id for an app's message. */
  senderId: string;
  fromBot: boolean;
  text?: string;
}

/**
 * Names, chats and messages looked up on Feishu and kept for `ttlMs` (one request at a time per
 * id). A lookup the app has no scope for (names without the contact scope) is remembered as
 * unknown, so it is not asked again on every message; other failures are not remembered.
 */
export class FeishuDirectory {
  readonly #users: CachedLookup<string | undefined>;
  readonly #chats: CachedLookup<ChatFacts>;
  readonly #messages: CachedLookup<MessageFacts>;

  constructor(
    private readonly api: FeishuApi,
    private readonly appId: string,
    ttlMs: number,
  ) {
    this.#users = new CachedLookup({ ttlMs, load: (openId) => this.#loadUser(openId) });
    this.#chats = new CachedLookup({ ttlMs, load: (chatId) => this.#loadChat(chatId) });
    this.#messages = new CachedLookup({ ttlMs, capacity: 2_000, load: (id) => this.#loadMessage(id) });
  }

  /** A person's display name, or undefined when Feishu will not say. */
  async userName(openId: string): Promise<string | undefined> {
    return this.#users.get(openId).catch(() => undefined);
  }

  /** Remembers a name an event or a member list told. */
  learnName(openId: string, name: string | undefined): void {
    if (name) this.#users.set(openId, name);
  }

  /** A chat's kind, title and members; undefined when Feishu cannot be asked right now. */
  async chat(chatId: string): Promise<ChatFacts | undefined> {
    return this.#chats.get(chatId).catch(() => undefined);
  }

  /** A message's chat and author; throws what Feishu said (`E_MESSAGE_NOT_FOUND`, …). */
  message(messageId: string): Promise<MessageFacts> {
    return this.#messages.get(messageId);
  }

  /** Remembers a message the bot just sent, so a reply to it needs no lookup. */
  learnMessage(message: FeishuMessage, text: string): void {
    this.#messages.set(message.message_id, { ...this.#facts(message), text });
  }

  async #loadUser(openId: string): Promise<string | undefined> {
    try {
      const user = await this.api.user(openId);
      return user.name || user.en_name || user.nickname || undefined;
    } catch (error) {
      // No contact scope: the name stays unknown (the open_id stands in) until the TTL ends.
      if (isChorusError(error) && error.code === "E_AUTH") return undefined;
      throw error;
    }
  }

  async #loadChat(chatId: string): Promise<ChatFacts> {
    const chat = await this.api.chat(chatId);
    const kind: ChatType = chat.chat_mode === "p2p" ? "direct" : "group";
    if (kind === "direct") return { kind };
    const members = await this.api.chatMembers(chatId).then(
      (list) =>
        list.map((member): Participant => {
          this.learnName(member.member_id, member.name);
          return { id: member.member_id, ...(member.name ? { name: member.name } : {}) };
        }),
      () => undefined,
    );
    return { kind, ...(chat.name ? { title: chat.name } : {}), ...(members ? { members } : {}) };
  }

  async #loadMessage(messageId: string): Promise<MessageFacts> {
    const message = await this.api.getMessage(messageId);
    if (!message || message.deleted) {
      throw new ChorusError("E_MESSAGE_NOT_FOUND", `Feishu has no message ${messageId} (withdrawn or deleted)`);
    }
    const facts = this.#facts(message);
    const text = readableText(message);
    return text === undefined ? facts : { ...facts, text };
  }

  #facts(message: FeishuMessage): MessageFacts {
    const fromBot = message.sender.sender_type === "app" && message.sender.id === this.appId;
    return {
      chatId: message.chat_id,
      ...(message.thread_id ? { threadId: message.thread_id } : {}),
      senderId: message.sender.id,
      fromBot,
    };
  }
}

/** A fetched message's text, when it has one the channel can read. */
function readableText(message: FeishuMessage): string | undefined {
  if (!message.body) return undefined;
  const names = new Map((message.mentions ?? []).map((m) => [m.key, m.name ?? m.id] as const));
  try {
    return plainText(message.msg_type, message.body.content, names);
  } catch {
    return undefined;
  }
}
