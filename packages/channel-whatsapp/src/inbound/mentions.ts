import type { MentionFacts } from "@chorus/core";
import { type BotIdentity, isBotJid } from "../jids.js";

/**
 * The mention facts WhatsApp states: `contextInfo.mentionedJid` (on whatever content type
 * carries it). The bot counts as mentioned by its phone-number JID and by its LID alike; the
 * others are listed by their participant id (`idOf`: phone-number JID where known). A reply to
 * the bot is not a mention here; it is `replyTo.fromBot`.
 */
export function mentionFacts(
  mentioned: readonly string[],
  who: Pick<BotIdentity, "pn" | "lid">,
  idOf: (jid: string) => string,
): MentionFacts {
  let bot = false;
  const others: string[] = [];
  for (const jid of mentioned) {
    if (isBotJid(jid, who)) bot = true;
    else others.push(idOf(jid));
  }
  return { bot, others: [...new Set(others)] };
}
