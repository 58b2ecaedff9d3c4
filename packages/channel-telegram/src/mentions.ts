import type { MentionFacts } from "@chorus/core";
import type { Message, MessageEntity, UserFromGetMe } from "grammy/types";

/** The bot itself, as `getMe` described it: what own-echo and mention checks need. */
export type BotUser = Pick<UserFromGetMe, "id" | "username" | "first_name">;

/**
 * The mention facts Telegram states: `mention` entities (`@username`, offsets in UTF-16 code
 * units, which JavaScript strings use too) and `text_mention` entities (users without a username,
 * carrying the user). A reply to the bot is not a mention here; it is `replyTo.fromBot`.
 */
export function mentionFacts(message: Message, bot: BotUser): MentionFacts {
  const text = message.text ?? message.caption ?? "";
  const entities: MessageEntity[] = message.entities ?? message.caption_entities ?? [];
  const me = bot.username.toLowerCase();
  let mentioned = false;
  const others: string[] = [];
  for (const entity of entities) {
    if (entity.type === "mention") {
      // `@name` — usernames are case-insensitive on Telegram.
      const name = text.slice(entity.offset + 1, entity.offset + entity.length);
      if (name.toLowerCase() === me) mentioned = true;
      else others.push(`@${name}`);
    } else if (entity.type === "text_mention") {
      if (entity.user.id === bot.id) mentioned = true;
      else others.push(String(entity.user.id));
    }
  }
  return { bot: mentioned, others: [...new Set(others)] };
}
