import { CachedLookup } from "@chorus/channel-kit";
import type { Api } from "grammy";
import type { ChatFullInfo } from "grammy/types";
import { reactionKey } from "./vocabulary.js";

/** What a chat allows: `emoji` undefined means every standard reaction (no restriction). */
export interface AllowedReactions {
  emoji?: readonly string[];
  customEmoji?: readonly string[];
}

/**
 * A chat's `available_reactions` (getChat), cached for `ttlMs` with one request per chat at a
 * time: admins can narrow the set of reactions in a group, and a reaction outside it is refused
 * before asking Telegram.
 */
export function chatReactionCache(api: Api, ttlMs: number): CachedLookup<AllowedReactions> {
  return new CachedLookup({ ttlMs, load: async (chatId) => allowedReactions(await api.getChat(chatId)) });
}

function allowedReactions(chat: ChatFullInfo): AllowedReactions {
  const list = chat.available_reactions;
  if (list === undefined) return {};
  return {
    emoji: list.filter((r) => r.type === "emoji").map((r) => reactionKey(r) as string),
    customEmoji: list.filter((r) => r.type === "custom_emoji").map((r) => reactionKey(r) as string),
  };
}
