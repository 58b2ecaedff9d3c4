import { type ReactionIntent, resolveEmoji, UnsupportedEmojiError } from "@chorus/core";

/** An emoji as Discord addresses it: unicode (`id` null) or a custom emoji of a guild. */
export interface DiscordEmoji {
  readonly id: string | null;
  readonly name: string;
  readonly animated?: boolean;
}

/** `<:name:id>` and `<a:name:id>` (how Discord writes custom emoji in text). */
const CUSTOM_TAG = /^<(a)?:([\w~]{2,32}):(\d{1,20})>$/;
/** `name:id` and `a:name:id` (how the reaction routes name them). */
const CUSTOM_PAIR = /^(?:(a):)?([\w~]{2,32}):(\d{1,20})$/;

/** Finds a custom emoji the bot can use by its name (`partyparrot`), for `:partyparrot:`. */
export type CustomEmojiLookup = (name: string) => DiscordEmoji | undefined;

/**
 * Rule 9 for Discord: unicode and shortcodes become the unicode emoji (fully qualified, as
 * Discord names it); custom emoji references and names of the guilds' emoji become `name:id`.
 */
export function toDiscordEmoji(intent: ReactionIntent, lookup: CustomEmojiLookup = () => undefined): DiscordEmoji {
  const given = (intent.emoji ?? "").trim();
  const custom = CUSTOM_TAG.exec(given) ?? CUSTOM_PAIR.exec(given);
  if (custom) return { id: custom[3] as string, name: custom[2] as string, animated: custom[1] === "a" };
  const resolved = intent.resolved ?? resolveEmoji(given);
  if (resolved) return { id: null, name: discordUnicode(resolved.unicode) };
  const named = lookup(given.replace(/^:|:$/g, ""));
  if (named) return named;
  throw new UnsupportedEmojiError(
    `"${given}" is neither a unicode emoji nor a custom emoji the Discord bot can use.`,
    given,
    [],
    "Use a unicode emoji or shortcode (👍, thumbsup), or a custom emoji as name:id or <:name:id>.",
  );
}

/** A Discord emoji's key in lists and results: unicode as is, custom as `name:id` (not core's `emojiKey`). */
export function discordEmojiKey(emoji: DiscordEmoji): string {
  return emoji.id === null ? emoji.name : `${emoji.name}:${emoji.id}`;
}

/** The `{emoji}` path segment of the reaction routes (URL-encoded, or Discord answers 10014). */
export function emojiSegment(emoji: DiscordEmoji): string {
  return encodeURIComponent(discordEmojiKey(emoji));
}

/** The key of a discord.js reaction emoji or a REST `reactions[].emoji` (see `discordEmojiKey`). */
export function reactionEmojiKey(emoji: { id: string | null; name: string | null }): string {
  return discordEmojiKey({ id: emoji.id, name: emoji.name ?? "" });
}

/**
 * Discord names unicode emoji in their fully-qualified form: U+FE0F stays after text-default
 * characters (`❤️`) and is dropped after emoji-default ones (`👍`, not `👍️`).
 */
function discordUnicode(unicode: string): string {
  let out = "";
  let previous = 0;
  for (const char of unicode) {
    const cp = char.codePointAt(0) as number;
    if (!(cp === 0xfe0f && previous >= 0x1f000)) out += char;
    previous = cp;
  }
  return out;
}
