import type { ReactionVocabulary } from "../emoji/vocabulary.js";
import { UnsupportedEmojiError } from "../errors.js";

/**
 * The error a plugin throws when an emoji has no place in its vocabulary (DESIGN §2.2 rule 9),
 * naming the closest allowed alternatives.
 */
export function unsupportedEmoji(
  emoji: string,
  vocabulary: ReactionVocabulary,
  channel?: string,
  limit = 3,
): UnsupportedEmojiError {
  const where = channel ? ` on ${channel}` : " on this channel";
  return new UnsupportedEmojiError(
    `"${emoji}" is not an allowed reaction${where}.`,
    emoji,
    vocabulary.closest(emoji, limit),
  );
}
