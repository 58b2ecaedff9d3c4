import type { ChannelInstance, MessageRef, ReactionSummary } from "@chorus/core";
import { type APIMessage, Routes } from "discord.js";
import type { DiscordRest } from "./client.js";
import { type CustomEmojiLookup, discordEmojiKey, emojiSegment, reactionEmojiKey, toDiscordEmoji } from "./emoji.js";
import { channelOfRef } from "./ref.js";

/**
 * Executes core's reaction intents (DESIGN §2.2 row Discord: clearAll, list). Only the bot's
 * own reactions are ever touched: `…/{emoji}/@me`, never the moderator routes.
 */
export function createReactions(
  rest: DiscordRest,
  lookup: CustomEmojiLookup,
): Pick<ChannelInstance, "react" | "listReactions"> {
  /** Everyone's reactions on the message: emoji (`👍`, `name:id`), count, and whether the bot is among them. */
  const fetch = async (ref: MessageRef): Promise<ReactionSummary[]> => {
    const message = await rest.call<APIMessage>(
      "get",
      Routes.channelMessage(channelOfRef(ref), ref.messageId),
      "fetch reactions",
    );
    return (message.reactions ?? []).map((r) => ({ emoji: reactionEmojiKey(r.emoji), count: r.count, me: r.me }));
  };
  return {
    /** Adds one emoji, removes one, or removes every reaction the bot holds on the message. */
    async react(ref, intent) {
      const channelId = channelOfRef(ref);
      if (intent.op === "clear") {
        const mine = (await fetch(ref)).filter((r) => r.me);
        for (const reaction of mine) {
          const segment = encodeURIComponent(reaction.emoji);
          await rest.call("delete", Routes.channelMessageOwnReaction(channelId, ref.messageId, segment), "react");
        }
        return { ok: true, action: "react", op: "clear", removed: mine.map((r) => r.emoji) };
      }
      const emoji = toDiscordEmoji(intent, lookup);
      const key = discordEmojiKey(emoji);
      const route = Routes.channelMessageOwnReaction(channelId, ref.messageId, emojiSegment(emoji));
      if (intent.op === "add") {
        // PUT is idempotent on Discord: adding a reaction the bot holds is a 204 too.
        await rest.call("put", route, "react");
        return { ok: true, action: "react", op: "add", emoji: key };
      }
      const held = (await fetch(ref)).some((r) => r.me && r.emoji === key);
      if (held) await rest.call("delete", route, "react");
      return { ok: true, action: "react", op: "remove", emoji: key, removed: held ? [key] : [] };
    },
    listReactions: fetch,
  };
}
