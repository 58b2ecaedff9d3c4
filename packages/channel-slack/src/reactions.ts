import { type ChannelInstance, isChorusError, type MessageRef, type ReactResult } from "@chorus/core";
import type { SlackApi } from "./api.js";
import { isInvalidName, notSlackEmoji, slackName } from "./emoji.js";
import type { SlackReaction } from "./wire.js";

type Reactions = Pick<ChannelInstance, "react" | "listReactions">;

/**
 * Executes core's reaction intents with `reactions.add` / `.remove` / `.get` (DESIGN §2.2,
 * Slack: clearAll and list). Slack lists who reacted, so clearing needs no record of its own:
 * it removes exactly the reactions whose users include the bot, never anyone else's.
 */
export function createReactions(api: SlackApi, botUserId: () => string): Reactions {
  const item = (ref: MessageRef) => ({ channel: ref.conversationId, timestamp: ref.messageId });
  const held = async (ref: MessageRef): Promise<SlackReaction[]> => {
    // `full`: without it Slack may cut the list of users short.
    const answer = await api.call("reactions.get", (web) => web.reactions.get({ ...item(ref), full: true }));
    return ((answer.message?.reactions ?? []) as SlackReaction[]).map((r) => ({ ...r, users: r.users ?? [] }));
  };
  const remove = (ref: MessageRef, name: string) =>
    tolerate(
      "no_reaction",
      api.call("reactions.remove", (web) => web.reactions.remove({ ...item(ref), name })),
    );

  return {
    async react(ref, intent): Promise<ReactResult> {
      if (intent.op === "clear") {
        const bot = botUserId();
        const removed: string[] = [];
        for (const reaction of await held(ref)) {
          if (reaction.users.includes(bot) && (await remove(ref, reaction.name))) removed.push(reaction.name);
        }
        return { ok: true, action: "react", op: "clear", removed };
      }
      const given = intent.emoji ?? "";
      const name = slackName(given);
      try {
        if (intent.op === "add") {
          await tolerate(
            "already_reacted",
            api.call("reactions.add", (web) => web.reactions.add({ ...item(ref), name })),
          );
          return { ok: true, action: "react", op: "add", emoji: name };
        }
        const removed = await remove(ref, name);
        return { ok: true, action: "react", op: "remove", emoji: name, removed: removed ? [name] : [] };
      } catch (error) {
        // A custom name the workspace does not have, or a standard name Slack spells otherwise.
        if (isInvalidName(error)) throw notSlackEmoji(given);
        throw error;
      }
    },
    async listReactions(ref) {
      const bot = botUserId();
      return (await held(ref)).map((r) => ({ emoji: r.name, count: r.count, me: r.users.includes(bot) }));
    },
  };
}

/** Rule 10: Slack refusing with `code` means the wish already holds. True when the call changed something. */
async function tolerate(code: string, call: Promise<unknown>): Promise<boolean> {
  try {
    await call;
    return true;
  } catch (error) {
    if (isChorusError(error) && error.details?.platformCode === code) return false;
    throw error;
  }
}
