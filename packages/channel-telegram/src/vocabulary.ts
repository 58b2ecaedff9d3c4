import { defineVocabulary, type ReactionVocabulary, stripVariationSelectors } from "@chorus/core";

/**
 * The 73 emoji a bot may react with (Bot API `ReactionTypeEmoji.emoji`), exactly as Telegram
 * spells them: WITHOUT U+FE0F (`❤` is U+2764, `❤‍🔥` is U+2764 U+200D U+1F525). Sending `❤️`
 * with the selector is refused by Telegram, so every input is normalized onto these forms.
 */
export const TELEGRAM_REACTION_EMOJI = [
  "👍",
  "👎",
  "❤",
  "🔥",
  "🥰",
  "👏",
  "😁",
  "🤔",
  "🤯",
  "😱",
  "🤬",
  "😢",
  "🎉",
  "🤩",
  "🤮",
  "💩",
  "🙏",
  "👌",
  "🕊",
  "🤡",
  "🥱",
  "🥴",
  "😍",
  "🐳",
  "❤‍🔥",
  "🌚",
  "🌭",
  "💯",
  "🤣",
  "⚡",
  "🍌",
  "🏆",
  "💔",
  "🤨",
  "😐",
  "🍓",
  "🍾",
  "💋",
  "🖕",
  "😈",
  "😴",
  "😭",
  "🤓",
  "👻",
  "👨‍💻",
  "👀",
  "🎃",
  "🙈",
  "😇",
  "😨",
  "🤝",
  "✍",
  "🤗",
  "🫡",
  "🎅",
  "🎄",
  "☃",
  "💅",
  "🤪",
  "🗿",
  "🆒",
  "💘",
  "🙉",
  "🦄",
  "😘",
  "💊",
  "🙊",
  "😎",
  "👾",
  "🤷‍♂",
  "🤷",
  "🤷‍♀",
  "😡",
] as const;

/** One of the emoji Telegram lets bots react with. */
export type TelegramReactionEmoji = (typeof TELEGRAM_REACTION_EMOJI)[number];

/** The closed reaction vocabulary of Telegram (names are the bare emoji above). */
export const telegramVocabulary: ReactionVocabulary = defineVocabulary(TELEGRAM_REACTION_EMOJI);

/** A custom emoji is addressed by its numeric id (`5368324170671202286`). */
const CUSTOM_EMOJI_ID = /^\d{5,24}$/;

/** How `input` is written on the wire: an allowed emoji, a custom emoji id, or nothing Telegram knows. */
export type TelegramReactionForm =
  | { type: "emoji"; emoji: TelegramReactionEmoji }
  | { type: "custom_emoji"; custom_emoji_id: string }
  | undefined;

/**
 * Maps an emoji, shortcode or custom emoji id onto Telegram's form (`❤️` → `❤`, `thumbsup` → `👍`,
 * `👍🏽` → `👍`); undefined when none of the 73 emoji means it.
 */
export function toTelegramReaction(input: string, vocabulary = telegramVocabulary): TelegramReactionForm {
  const text = input.trim();
  if (CUSTOM_EMOJI_ID.test(text)) return { type: "custom_emoji", custom_emoji_id: text };
  const bare = stripVariationSelectors(text);
  const exact = vocabulary.has(bare) ? bare : vocabulary.lookup(text);
  return exact === undefined ? undefined : { type: "emoji", emoji: exact as TelegramReactionEmoji };
}

/** The string the bot's reaction state and the agent see: the emoji, or the custom emoji id. */
export function reactionKey(reaction: { type: string; emoji?: string; custom_emoji_id?: string }): string | undefined {
  if (reaction.type === "emoji" && reaction.emoji) return stripVariationSelectors(reaction.emoji);
  if (reaction.type === "custom_emoji" && reaction.custom_emoji_id) return reaction.custom_emoji_id;
  return undefined;
}
