import { readState, writeState } from "./state-file.js";
import { isTapbackKind, type TapbackKind } from "./vocabulary.js";

/** Messages remembered by each store; the oldest are forgotten first. */
const LIMIT = 5_000;

/**
 * The tapback the bot holds on each message (`<chatGuid>/<messageGuid>` → kind), persisted in
 * `stateDir`: BlueBubbles has no "my tapback on this message" call, and one tapback per person
 * per message means clearing is removing the one held.
 */
export class TapbackStore {
  #held = new Map<string, TapbackKind>();

  constructor(private readonly stateDir: string) {}

  /** Reads the record an earlier run left. */
  async load(): Promise<void> {
    const saved = await readState(this.stateDir, "tapbacks.json");
    if (typeof saved !== "object" || saved === null) return;
    for (const [key, value] of Object.entries(saved)) {
      if (typeof value === "string" && isTapbackKind(value)) this.#held.set(key, value);
    }
  }

  /** The kind the bot holds on a message, if any. */
  get(chatGuid: string, messageGuid: string): TapbackKind | undefined {
    return this.#held.get(`${chatGuid}/${messageGuid}`);
  }

  /** Records what the bot holds now (undefined: nothing), and persists the record. */
  async set(chatGuid: string, messageGuid: string, kind: TapbackKind | undefined): Promise<void> {
    const key = `${chatGuid}/${messageGuid}`;
    this.#held.delete(key);
    if (kind !== undefined) this.#held.set(key, kind);
    if (this.#held.size > LIMIT) this.#held.delete(this.#held.keys().next().value as string);
    await writeState(this.stateDir, "tapbacks.json", Object.fromEntries(this.#held));
  }
}

/**
 * GUIDs of the bot's own messages (sent through Chorus, or seen as `isFromMe` echoes), persisted:
 * a reply or tapback pointing at one of them is a reply to, or reaction on, the bot.
 */
export class OwnMessages {
  #guids = new Set<string>();

  constructor(private readonly stateDir: string) {}

  /** Reads the record an earlier run left. */
  async load(): Promise<void> {
    const saved = await readState(this.stateDir, "own-messages.json");
    if (Array.isArray(saved)) for (const guid of saved) if (typeof guid === "string") this.#guids.add(guid);
  }

  has(guid: string): boolean {
    return this.#guids.has(guid);
  }

  /** Remembers a GUID of the bot's and persists the record. */
  async add(guid: string): Promise<void> {
    if (this.#guids.has(guid)) return;
    this.#guids.add(guid);
    if (this.#guids.size > LIMIT) this.#guids.delete(this.#guids.values().next().value as string);
    await writeState(this.stateDir, "own-messages.json", [...this.#guids]);
  }
}
