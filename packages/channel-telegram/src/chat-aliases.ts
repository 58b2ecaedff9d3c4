import type { ChannelStore } from "@chorus/core";

/**
 * Group → supergroup migrations. When a group is upgraded Telegram gives it a new chat id; the
 * session (and the gateway's settings for that group) live under the OLD id, so inbound events
 * from the new chat keep the old id as their conversation id, and sends to the old id go to the
 * new chat. Kept in the channel's store (`chatMigrations/<old chat id>` → new chat id), so it
 * holds after a restart; read into memory at start, since every inbound update asks.
 */
export class ChatAliases {
  /** The store keys of the migration map. */
  static readonly PREFIX = "chatMigrations/";
  #toNew = new Map<string, string>();
  #toOld = new Map<string, string>();

  constructor(private readonly store: ChannelStore) {}

  /** The store key of the migration of chat `from`. */
  static key(from: string): string {
    return `${ChatAliases.PREFIX}${from}`;
  }

  /** Reads the stored migrations. */
  async load(): Promise<void> {
    this.#toNew = new Map();
    this.#toOld = new Map();
    for (const { key, value } of await this.store.list(ChatAliases.PREFIX)) {
      if (typeof value === "string") this.#remember(key.slice(ChatAliases.PREFIX.length), value);
    }
  }

  /** Records that chat `from` became chat `to`. */
  async migrate(from: string, to: string): Promise<void> {
    if (this.#toNew.get(from) === to) return;
    this.#remember(from, to);
    await this.store.set(ChatAliases.key(from), to);
  }

  /** The conversation id a chat is known by (the oldest id of a migrated group). */
  conversationId(chatId: string): string {
    let id = chatId;
    for (let hop = 0; hop < 8 && this.#toOld.has(id); hop++) id = this.#toOld.get(id) as string;
    return id;
  }

  /** The chat id to call Telegram with for a conversation id (the newest id of a migrated group). */
  chatId(conversationId: string): string {
    let id = conversationId;
    for (let hop = 0; hop < 8 && this.#toNew.has(id); hop++) id = this.#toNew.get(id) as string;
    return id;
  }

  #remember(from: string, to: string): void {
    this.#toNew.set(from, to);
    this.#toOld.set(to, from);
  }
}
