import type { Api } from "grammy";
import { reactionKey } from "./vocabulary.js";

/** What a chat allows: `emoji` undefined means every standard reaction (no restriction). */
export interface AllowedReactions {
  emoji?: readonly string[];
  customEmoji?: readonly string[];
}

/**
 * A chat's `available_reactions` (getChat), cached for `ttlMs`: admins can narrow the set of
 * reactions in a group, and a reaction outside it is refused before asking Telegram.
 */
export class ChatReactionCache {
  readonly #cache = new Map<string, { at: number; allowed: AllowedReactions }>();

  constructor(
    private readonly api: Api,
    private readonly ttlMs: number,
  ) {}

  /** The reactions allowed in a chat. */
  async get(chatId: string): Promise<AllowedReactions> {
    const cached = this.#cache.get(chatId);
    if (cached && Date.now() - cached.at < this.ttlMs) return cached.allowed;
    const chat = await this.api.getChat(chatId);
    const list = chat.available_reactions;
    const allowed: AllowedReactions =
      list === undefined
        ? {}
        : {
            emoji: list.filter((r) => r.type === "emoji").map((r) => reactionKey(r) as string),
            customEmoji: list.filter((r) => r.type === "custom_emoji").map((r) => reactionKey(r) as string),
          };
    this.#cache.set(chatId, { at: Date.now(), allowed });
    return allowed;
  }
}
