import { ChorusError, type GeoLocation, MAX_EMOJI_LENGTH, resolveEmoji } from "@chorus/core";

/** Longest display name. */
export const MAX_NAME_LENGTH = 40;
/** Longest message text; the plugin splits longer bot replies. */
export const MAX_MESSAGE_LENGTH = 8000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

/** A display name, trimmed with inner whitespace collapsed, or `E_INVALID_INPUT` saying why not. */
export function cleanName(input: string): string {
  const name = input.trim().replace(/\s+/gu, " ");
  if (name === "") throw new ChorusError("E_INVALID_INPUT", "name is empty", { hint: "Pick a name such as Ada." });
  if ([...name].length > MAX_NAME_LENGTH) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `name "${name.slice(0, 60)}…" is longer than ${MAX_NAME_LENGTH} characters`,
    );
  }
  if (CONTROL.test(name)) throw new ChorusError("E_INVALID_INPUT", "name contains control characters");
  if (name.startsWith("@")) {
    throw new ChorusError("E_INVALID_INPUT", `name "${name}" starts with @`, {
      hint: "Leave out the @; others mention you as @Name.",
    });
  }
  return name;
}

/**
 * Message text as given, or `E_INVALID_INPUT` when it is too long, or blank on a message that
 * carries nothing else (`carriesMore`: media or a location).
 */
export function checkText(text: string, carriesMore = false): string {
  if (text.trim() === "" && !carriesMore) throw new ChorusError("E_INVALID_INPUT", "message text is empty");
  if (text.length > MAX_MESSAGE_LENGTH) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `message text is ${text.length} characters, more than the ${MAX_MESSAGE_LENGTH} allowed`,
      { hint: "Split it into several messages." },
    );
  }
  return text;
}

/**
 * How the webchat stores an emoji: standard emoji (unicode or shortcode) as bare unicode
 * without U+FE0F, anything else (custom names) as given, trimmed.
 */
export function webchatEmoji(input: string): string {
  const text = input.trim();
  if (text === "") throw new ChorusError("E_EMOJI_REQUIRED", "emoji is empty", { hint: 'Pass an emoji such as "👍".' });
  if (text.length > MAX_EMOJI_LENGTH) {
    throw new ChorusError("E_INVALID_INPUT", `emoji is ${text.length} characters, more than ${MAX_EMOJI_LENGTH}`);
  }
  return resolveEmoji(text)?.bare ?? text;
}

/** A place as the hub keeps it: its coordinates, and its name and address where they are not blank. */
export function placeOf(location: {
  latitude: number;
  longitude: number;
  name?: string | undefined;
  address?: string | undefined;
}): GeoLocation {
  const { latitude, longitude } = location;
  const name = location.name?.trim();
  const address = location.address?.trim();
  return { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) };
}
