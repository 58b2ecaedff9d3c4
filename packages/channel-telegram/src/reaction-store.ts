import { join } from "node:path";
import { StateFile } from "./state-file.js";

/** Messages whose bot reaction is remembered; the oldest are forgotten first. */
const MAX_TRACKED = 5_000;

interface Stored {
  /** `<chatId>:<messageId>` → what the bot holds there (emoji or custom emoji id), oldest first. */
  reactions: Record<string, string[]>;
}

/**
 * What the bot itself has set, per message. Telegram never reports a bot's own reactions and has
 * no method to list them, so this record (persisted in `stateDir`) is the only source of truth.
 */
export class BotReactionStore {
  readonly #file: StateFile<Stored>;
  #map: Map<string, string[]> | undefined;

  constructor(stateDir: string) {
    this.#file = new StateFile(join(stateDir, "bot-reactions.json"), () => ({ reactions: {} }));
  }

  /** The bot's reactions on one message. */
  async get(chatId: string, messageId: string | number): Promise<string[]> {
    return [...((await this.#load()).get(key(chatId, messageId)) ?? [])];
  }

  /** Records what the bot now holds on one message (empty: nothing). */
  async set(chatId: string, messageId: string | number, reactions: readonly string[]): Promise<void> {
    const map = await this.#load();
    const id = key(chatId, messageId);
    map.delete(id);
    if (reactions.length > 0) map.set(id, [...reactions]);
    while (map.size > MAX_TRACKED) map.delete(map.keys().next().value as string);
    await this.#file.write({ reactions: Object.fromEntries(map) });
  }

  async #load(): Promise<Map<string, string[]>> {
    this.#map ??= new Map(Object.entries((await this.#file.read()).reactions ?? {}));
    return this.#map;
  }
}

function key(chatId: string, messageId: string | number): string {
  return `${chatId}:${messageId}`;
}
