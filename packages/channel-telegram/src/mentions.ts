import type { MentionFacts } from "@chorus/core";
import type { Message, MessageEntity } from "grammy/types";
import type { Identity } from "./ref.js";

/**
 * The mention facts Telegram states: `mention` entities (`@username`, offsets in UTF-16 code
 * units, which JavaScript strings use too) and `text_mention` entities (users without a username,
 * carrying the user). A reply to the bot is not a mention here; it is `replyTo.fromBot`.
 */
export function mentionFacts(message: Message, who: Identity): MentionFacts {
  const text = message.text ?? message.caption ?? "";
  const entities: MessageEntity[] = message.entities ?? message.caption_entities ?? [];
  const me = who.username.toLowerCase();
  let bot = false;
  const others: string[] = [];
  for (const entity of entities) {
    if (entity.type === "mention") {
      // `@name` — usernames are case-insensitive on Telegram.
      const name = text.slice(entity.offset + 1, entity.offset + entity.length);
      if (name.toLowerCase() === me) bot = true;
      else others.push(`@${name}`);
    } else if (entity.type === "text_mention") {
      if (entity.user.id === who.botId) bot = true;
      else others.push(String(entity.user.id));
    }
  }
  return { bot, others: [...new Set(others)] };
}
