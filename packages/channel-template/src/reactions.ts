import { type BotReactionRecord, type HttpClient, PlatformHttpError } from "@chorus/channel-kit";
import {
  type ChannelInstance,
  defineVocabulary,
  type MessageRef,
  type ReactResult,
  unsupportedEmoji,
} from "@chorus/core";

/** Acme's whole reaction set: its names, each with the emoji Acme shows for it. */
const ACME_REACTIONS: Record<string, string> = {
  thumbs_up: "👍",
  heart: "❤️",
  laugh: "😂",
  wow: "😮",
  sad: "😢",
  party: "🎉",
  fire: "🔥",
  eyes: "👀",
};

/**
 * The closed vocabulary (DESIGN §2.2 rule 9). Each name is reached from its emoji, that emoji's
 * shortcodes (`thumbsup`, `+1`, `:tada:`) and the name itself; core's emoji data does the matching.
 */
export const acmeVocabulary = defineVocabulary(
  Object.entries(ACME_REACTIONS).map(([name, emoji]) => ({ name, matches: [emoji] })),
);

/** The emoji Acme shows for one of its names; a name Acme added since stays as it is. */
export const emojiOf = (name: string): string => ACME_REACTIONS[name] ?? name;

/**
 * Executes the intents core decided (DESIGN §2.2). Acme can neither list who reacted nor clear
 * reactions, so the bot keeps a bot reaction record in `ctx.store`: clearing removes exactly
 * what the bot added, also after a restart. Each call reads and writes the record alone on its
 * message (`record.exclusive`), so concurrent calls never leave it at odds with Acme.
 */
export function createReactions(client: HttpClient, record: BotReactionRecord): Pick<ChannelInstance, "react"> {
  const call = (method: "PUT" | "DELETE", ref: MessageRef, name: string) =>
    client.request({ method, path: `/v1/messages/${encodeURIComponent(ref.messageId)}/reactions/${name}` });
  const remove = (ref: MessageRef, name: string) => tolerate("reaction_not_found", call("DELETE", ref, name));
  return {
    async react(ref, intent) {
      const given = intent.emoji ?? "";
      const name = intent.op === "clear" ? undefined : acmeVocabulary.lookup(given);
      // Refused before any request, naming the closest reactions Acme does have.
      if (intent.op !== "clear" && name === undefined) throw unsupportedEmoji(given, acmeVocabulary, "Acme Chat");
      // Alone on the message: another call between reading the record and writing it would be lost.
      return record.exclusive(ref, async (): Promise<ReactResult> => {
        if (name === undefined) {
          const removed: string[] = [];
          for (const held of await record.held(ref)) if (await remove(ref, held)) removed.push(held);
          await record.hold(ref, []);
          return { ok: true, action: "react", op: "clear", removed };
        }
        if (intent.op === "add") {
          // Recorded first: when Acme added it but its answer was lost, a later clear still removes it.
          await record.change(ref, (held) => [...held.filter((n) => n !== name), name]);
          await tolerate("already_reacted", call("PUT", ref, name));
          return { ok: true, action: "react", op: "add", emoji: name };
        }
        const removed = await remove(ref, name);
        await record.change(ref, (held) => held.filter((n) => n !== name));
        return { ok: true, action: "react", op: "remove", emoji: name, removed: removed ? [name] : [] };
      });
    },
  };
}

/** Rule 10: Acme refusing with `code` means the wish already holds. True when the call changed something. */
async function tolerate(code: string, call: Promise<unknown>): Promise<boolean> {
  try {
    await call;
    return true;
  } catch (error) {
    if (error instanceof PlatformHttpError && error.platformCode === code) return false;
    throw error;
  }
}
