/** Digits, with `+`, spaces, dashes, dots and brackets between them: how people write phone numbers. */
const PHONE_SHAPE = /^\+?[\d\s\-().]+$/;
/** E.164 allows at most 15 digits; fewer than 4 is a short code or an id, not a number. */
const MIN_DIGITS = 4;
const MAX_DIGITS = 15;

/**
 * The digits of a phone number written with `+`, spaces, dashes, dots or brackets, 4 to 15 of
 * them; `undefined` when the text is not a phone number. The gateway's one way of reading a
 * number: `allowFrom`, `groupAllowFrom`, `reactionAllowlist` and the bot's own number all use it.
 */
export function phoneDigits(value: string): string | undefined {
  const text = value.trim();
  if (!PHONE_SHAPE.test(text)) return undefined;
  const digits = text.replace(/\D/g, "");
  return digits.length >= MIN_DIGITS && digits.length <= MAX_DIGITS ? digits : undefined;
}

/** True when both texts are phone numbers (see `phoneDigits`) with the same digits. */
export function samePhone(a: string, b: string): boolean {
  const left = phoneDigits(a);
  return left !== undefined && left === phoneDigits(b);
}
