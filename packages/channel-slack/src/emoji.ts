import {
  ChorusError,
  defineVocabulary,
  listEmoji,
  type ReactionVocabulary,
  type ResolvedEmoji,
  resolveEmoji,
  stripVariationSelectors,
  UnsupportedEmojiError,
  withSkinTone,
} from "@chorus/core";

/**
 * Where Slack's own short name differs from the first one the emoji data lists: `+1` and `-1`
 * are Slack's canonical names, but `thumbsup` is what people write and what the issue asks for.
 */
const PREFERRED: Record<string, string> = { "+1": "thumbsup", "-1": "thumbsdown" };
/** What a Slack emoji name may contain (custom emoji too): no spaces, no colons, no unicode. */
const NAME = /^[a-z0-9_+'.-]+$/i;
const SKIN_TONE = /^([^:\s]+)::skin-tone-([2-6])$/;

/** Slack's name of a standard emoji (skin tones as `thumbsup::skin-tone-3`). */
export function slackNameOf(emoji: ResolvedEmoji): string {
  const base = emoji.base ?? emoji;
  const first = base.shortcodes[0] ?? base.label.toLowerCase().replace(/\s+/g, "_");
  const name = PREFERRED[first] ?? first;
  return emoji.skinTone === undefined ? name : `${name}::skin-tone-${emoji.skinTone + 1}`;
}

/**
 * The name to send Slack for what the agent wrote: unicode, a shortcode with or without
 * colons, a toned name; a workspace's custom emoji name passes through as given. Throws
 * `E_UNSUPPORTED_EMOJI` (closest standard names) for anything that cannot be a Slack name.
 */
export function slackName(input: string): string {
  const text = stripVariationSelectors(input.trim());
  const bare = text.length > 2 && text.startsWith(":") && text.endsWith(":") ? text.slice(1, -1) : text;
  const toned = SKIN_TONE.exec(bare);
  if (toned) {
    const base = resolveEmoji(toned[1] as string);
    return base ? `${slackNameOf(base)}::skin-tone-${toned[2]}` : bare;
  }
  const resolved = resolveEmoji(text);
  if (resolved) return slackNameOf(resolved);
  if (NAME.test(bare)) return bare;
  throw notSlackEmoji(input, "it is neither an emoji nor a Slack emoji name");
}

/** What an inbound reaction shows the agent: the emoji where Slack's name has one (toned too), else the name. */
export function emojiOfName(name: string): string {
  const toned = SKIN_TONE.exec(name);
  if (toned) {
    const base = resolveEmoji(toned[1] as string);
    // Slack's skin-tone-2 … 6 are the five tones, light to dark.
    const emoji = base && withSkinTone(base, Number(toned[2]) - 1);
    return emoji?.unicode ?? name;
  }
  return resolveEmoji(name)?.unicode ?? name;
}

/** Slack refused the name (`invalid_name`): the closest standard names instead. */
export function notSlackEmoji(input: string, why = "Slack does not know that emoji name"): UnsupportedEmojiError {
  const alternatives = standardNames().closest(input, 3);
  return new UnsupportedEmojiError(`"${input}" is not a reaction on Slack: ${why}.`, input, alternatives);
}

/** Whether an error is Slack's `invalid_name`. */
export function isInvalidName(error: unknown): boolean {
  return error instanceof ChorusError && error.details?.platformCode === "invalid_name";
}

let standard: ReactionVocabulary | undefined;

/** Every standard emoji by its Slack name, for closest-name hints; built on first need. */
function standardNames(): ReactionVocabulary {
  standard ??= defineVocabulary(listEmoji().map((emoji) => ({ name: slackNameOf(emoji), matches: [emoji.unicode] })));
  return standard;
}
