import type { ChannelStore, RefScope } from "@chorus/core";
import { botActorId } from "./signing.js";

/** The store key of what a `Join`/`Leave` hook taught about the bot. */
export const IDENTITY_KEY = "identity";

/** What is kept under `IDENTITY_KEY`: the shape `identity.json` had before the store. */
export interface LearnedIdentity {
  /** `bots/bot-<sha1>`. */
  botId: string;
  /** The bot's name as installed, or "". */
  name: string;
}

/** The parts of a learned identity a stored or legacy value holds validly (none when it is of another shape). */
export function learnedIdentity(value: unknown): Partial<LearnedIdentity> {
  const saved = (value ?? {}) as { botId?: unknown; name?: unknown };
  return {
    ...(typeof saved.botId === "string" && saved.botId.startsWith("bots/") ? { botId: saved.botId } : {}),
    ...(typeof saved.name === "string" && saved.name !== "" ? { name: saved.name } : {}),
  };
}

/**
 * The bot as Talk knows it, for one account. Talk names the bot `bots/bot-<sha1(url)>`, `url`
 * being the webhook URL given to `occ talk:bot:install`, so it is computed from that URL; a
 * `Join`/`Leave` hook states it outright, and what it says wins and is kept in the store.
 */
export class BotIdentity {
  #botId: string;
  #botName: string | undefined;

  constructor(
    private readonly base: { channel: string; accountId: string; webhookUrl: string; botName?: string | undefined },
    private readonly store: ChannelStore,
  ) {
    this.#botId = botActorId(base.webhookUrl);
    this.#botName = base.botName;
  }

  /** Reads what an earlier `Join` taught, if anything. */
  async load(): Promise<void> {
    const saved = learnedIdentity(await this.store.get(IDENTITY_KEY));
    if (saved.botId) this.#botId = saved.botId;
    if (this.base.botName === undefined && saved.name) this.#botName = saved.name;
  }

  /** Adopts the id and name a `Join`/`Leave` hook states; true when they differ from what we had. */
  async learn(botId: string, name: string): Promise<boolean> {
    const newName = this.base.botName === undefined && name !== "" && name !== this.#botName;
    if (botId === this.#botId && !newName) return false;
    this.#botId = botId;
    if (newName) this.#botName = name;
    const learned: LearnedIdentity = { botId: this.#botId, name: this.#botName ?? "" };
    await this.store.set(IDENTITY_KEY, { ...learned });
    return true;
  }

  /** The scope this instance mints refs in (core's `mintRef`). */
  scope(): RefScope {
    return { channel: this.base.channel, accountId: this.base.accountId, botId: this.#botId };
  }

  /** The bot's display name, when configured or learned from a `Join`. */
  get botName(): string | undefined {
    return this.#botName;
  }
}
