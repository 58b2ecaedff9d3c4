/** Bot messages remembered, so reactions to them can say `fromBot` (Telegram does not). */
const REMEMBERED = 5_000;

/** The ids of messages the bot sent recently, per chat. */
export class SentMessages {
  readonly #ids = new Set<string>();

  /** Remembers a message the bot sent. */
  add(chatId: string, messageId: number): void {
    this.#ids.add(`${chatId}:${messageId}`);
    if (this.#ids.size > REMEMBERED) this.#ids.delete(this.#ids.values().next().value as string);
  }

  /** Whether the bot sent this message (as far as this instance remembers). */
  has(chatId: string, messageId: number): boolean {
    return this.#ids.has(`${chatId}:${messageId}`);
  }
}
