import { join } from "node:path";
import { StateFile } from "./state-file.js";

interface Stored {
  /** Old group chat id → the supergroup it became (`migrate_to_chat_id`). */
  migrated: Record<string, string>;
}

/**
 * Group → supergroup migrations. When a group is upgraded Telegram gives it a new chat id; the
 * session (and the gateway's settings for that group) live under the OLD id, so inbound events
 * from the new chat keep the old id as their conversation id, and sends to the old id go to the
 * new chat. Persisted in `stateDir` so it holds after a restart.
 */
export class ChatAliases {
  readonly #file: StateFile<Stored>;
  #toNew = new Map<string, string>();
  #toOld = new Map<string, string>();

  constructor(stateDir: string) {
    this.#file = new StateFile(join(stateDir, "chat-migrations.json"), () => ({ migrated: {} }));
  }

  /** Reads the persisted migrations. */
  async load(): Promise<void> {
    const { migrated } = await this.#file.read();
    for (const [from, to] of Object.entries(migrated ?? {})) this.#remember(from, to);
  }

  /** Records that chat `from` became chat `to`. */
  async migrate(from: string, to: string): Promise<void> {
    if (this.#toNew.get(from) === to) return;
    this.#remember(from, to);
    await this.#file.write({ migrated: Object.fromEntries(this.#toNew) });
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
