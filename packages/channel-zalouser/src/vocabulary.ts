import { defineVocabulary } from "@chorus/core";
import { Reactions } from "zca-js";

/**
 * Zalo's reaction icons (zca-js' `Reactions`) with the emoji each one shows. The order matters:
 * an emoji reached by two entries means the first (👍 is LIKE, not PUNCH).
 */
const ZALO_ICONS: readonly (readonly [name: keyof typeof Reactions, emoji: readonly string[]])[] = [
  ["LIKE", ["👍"]],
  ["HEART", ["❤️", "💗"]],
  ["HAHA", ["😆", "😄"]],
  ["WOW", ["😮"]],
  ["CRY", ["😢"]],
  ["ANGRY", ["😡"]],
  ["DISLIKE", ["👎"]],
  ["PRAY", ["🙏"]],
  ["OK", ["👌"]],
  ["KISS", ["😘"]],
  ["TEARS_OF_JOY", ["😂"]],
  ["SHIT", ["💩"]],
  ["ROSE", ["🌹"]],
  ["BROKEN_HEART", ["💔"]],
  ["LOVE", ["😍"]],
  ["CONFUSED", ["😕"]],
  ["WINK", ["😉"]],
  ["FADE", []],
  ["SUN", ["☀️"]],
  ["BIRTHDAY", ["🎂"]],
  ["BOMB", ["💣"]],
  ["PEACE", ["✌️"]],
  ["THANKS", []],
  ["PUNCH", ["👊"]],
  ["SHARE", []],
  ["NO", ["🙅"]],
  ["BAD", []],
  ["LOVE_YOU", ["🤟"]],
  ["SAD", ["😞"]],
  ["VERY_SAD", ["😭"]],
  ["COOL", ["😎"]],
  ["NERD", ["🤓"]],
  ["BIG_SMILE", ["😁"]],
  ["SUNGLASSES", []],
  ["NEUTRAL", ["😐"]],
  ["SAD_FACE", ["☹️"]],
  ["BYE", ["👋"]],
  ["SLEEPY", ["😴"]],
  ["WIPE", ["😅"]],
  ["DIG", []],
  ["ANGUISH", ["😧"]],
  ["HANDCLAP", ["👏"]],
  ["ANGRY_FACE", ["😠"]],
  ["F_CHAIR", []],
  ["L_CHAIR", []],
  ["R_CHAIR", []],
  ["SILENT", ["🤐"]],
  ["SURPRISE", ["😲"]],
  ["EMBARRASSED", ["😳"]],
  ["AFRAID", ["😨"]],
  ["SAD2", ["😟"]],
  ["BIG_LAUGH", ["🤣"]],
  ["RICH", ["🤑"]],
  ["BEER", ["🍺"]],
];

/**
 * The closed vocabulary (DESIGN §2.2 rule 9), by zca-js' enum names (`LIKE`, `HEART`): reached
 * from each name, its emoji and their shortcodes (`thumbsup`, `:heart:`).
 */
export const zaloVocabulary = defineVocabulary(ZALO_ICONS.map(([name, emoji]) => ({ name, matches: emoji })));

const iconByName = new Map<string, Reactions>(ZALO_ICONS.map(([name]) => [name, Reactions[name]]));
const nameByIcon = new Map<string, string>(ZALO_ICONS.map(([name]) => [Reactions[name], name]));
const emojiByIcon = new Map<string, string>(
  ZALO_ICONS.flatMap(([name, emoji]) => (emoji[0] ? [[Reactions[name], emoji[0]] as const] : [])),
);

/** The Zalo icon `input` means: an icon code (`/-strong`), an enum name, an emoji or a shortcode; undefined when none. */
export function zaloIcon(input: string): Reactions | undefined {
  const trimmed = input.trim();
  if (trimmed !== "" && nameByIcon.has(trimmed)) return trimmed as Reactions;
  const name = zaloVocabulary.lookup(trimmed);
  return name === undefined ? undefined : iconByName.get(name);
}

/** The enum name of an icon (`/-strong` → `LIKE`), for results; the icon itself when unknown. */
export const iconName = (icon: string): string => nameByIcon.get(icon) ?? icon;

/** The emoji an icon shows, for inbound events (`/-strong` → 👍); the icon code when it has none. */
export const emojiOfIcon = (icon: string): string => emojiByIcon.get(icon) ?? icon;
