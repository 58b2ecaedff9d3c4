import { type HttpClient, PlatformHttpError } from "@chorus/channel-kit";
import type { ChannelInstance, ReactionSummary } from "@chorus/core";

/**
 * Executes the intents core decided from the flags (DESIGN §2.2): add, remove, clear. "Already
 * there" and "not there" are success (rule 10). The platform lists reactions, so nothing is kept.
 */
export function createReactions(
  client: HttpClient,
  botId: () => string,
): Pick<ChannelInstance, "react" | "listReactions"> {
  const on = (messageId: string) => `/v1/messages/${encodeURIComponent(messageId)}/reactions`;
  return {
    async react(ref, intent) {
      if (intent.op === "clear") {
        const { removed } = await client.request<{ removed: string[] }>({ method: "DELETE", path: on(ref.messageId) });
        return { ok: true, action: "react", op: "clear", removed };
      }
      // Core resolved the emoji (`:thumbsup:` → 👍); the platform takes it without variation selectors.
      const emoji = intent.resolved?.bare ?? intent.emoji ?? "";
      const path = `${on(ref.messageId)}/${encodeURIComponent(emoji)}`;
      if (intent.op === "add") {
        await tolerate("already_reacted", client.request({ method: "PUT", path }));
        return { ok: true, action: "react", op: "add", emoji };
      }
      const removed = await tolerate("no_reaction", client.request({ method: "DELETE", path }));
      return { ok: true, action: "react", op: "remove", emoji, removed: removed ? [emoji] : [] };
    },
    async listReactions(ref): Promise<ReactionSummary[]> {
      const summary = await client.request<{ emoji: string; users: string[] }[]>({
        method: "GET",
        path: on(ref.messageId),
      });
      return summary.map(({ emoji, users }) => ({ emoji, count: users.length, me: users.includes(botId()) }));
    },
  };
}

/** True when the call changed something; false when the platform said the wish already holds (`code`). */
async function tolerate(code: string, call: Promise<unknown>): Promise<boolean> {
  try {
    await call;
    return true;
  } catch (error) {
    if (error instanceof PlatformHttpError && error.platformCode === code) return false;
    throw error;
  }
}
