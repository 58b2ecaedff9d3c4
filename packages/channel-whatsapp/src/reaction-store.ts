import { join } from "node:path";
import { BoundedMap } from "./bounded.js";
import { JsonStateFile } from "./state-file.js";

/** Messages whose bot reaction is remembered; the oldest are forgotten first. */
const REMEMBERED = 5_000;

/**
 * The reaction the bot holds on each message (one slot per person per message), persisted in
 * `stateDir`. WhatsApp has no call that lists reactions, so this record is what makes adding the
 * same emoji again and clearing an empty slot cost no request.
 */
export class BotReactionStore {
  readonly #file: JsonStateFile<Record<string, string>>;
  #held: BoundedMap<string, string> | undefined;

  constructor(stateDir: string) {
    this.#file = new JsonStateFile(join(stateDir, "bot-reactions.json"), (raw) =>
      typeof raw === "object" && raw !== null && !Array.isArray(raw)
        ? Object.fromEntries(
            Object.entries(raw).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
          )
        : {},
    );
  }

  /** The emoji the bot holds on a message (as it was sent), if any. */
  async get(remoteJid: string, id: string): Promise<string | undefined> {
    return (await this.#load()).get(keyOf(remoteJid, id));
  }

  /** Records what the bot now holds on a message (undefined: nothing) and persists the record. */
  async set(remoteJid: string, id: string, emoji: string | undefined): Promise<void> {
    const held = await this.#load();
    if (emoji === undefined) held.delete(keyOf(remoteJid, id));
    else held.set(keyOf(remoteJid, id), emoji);
    await this.#file.save(() => Object.fromEntries(held.entries()));
  }

  async #load(): Promise<BoundedMap<string, string>> {
    if (this.#held) return this.#held;
    const held = new BoundedMap<string, string>(REMEMBERED);
    for (const [key, emoji] of Object.entries(await this.#file.read())) held.set(key, emoji);
    this.#held ??= held;
    return this.#held;
  }
}

function keyOf(remoteJid: string, id: string): string {
  return `${remoteJid}\n${id}`;
}
