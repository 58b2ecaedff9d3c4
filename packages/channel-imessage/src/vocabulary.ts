import { defineVocabulary, type ReactionVocabulary } from "@chorus/core";

/** The six classic tapbacks, in chat.db order (2000 + index adds, 3000 + index removes). */
export const TAPBACK_KINDS = ["love", "like", "dislike", "laugh", "emphasize", "question"] as const;

export type TapbackKind = (typeof TAPBACK_KINDS)[number];

/** The emoji each tapback shows as, for inbound reaction events. */
export const TAPBACK_EMOJI: Readonly<Record<TapbackKind, string>> = {
  love: "❤️",
  like: "👍",
  dislike: "👎",
  laugh: "😂",
  emphasize: "‼️",
  question: "❓",
};

/**
 * The tapback vocabulary core maps emoji onto (`intent.kind`): unicode, shortcodes and words,
 * case- and selector-insensitive.
 */
export const imessageVocabulary: ReactionVocabulary = defineVocabulary([
  { name: "love", matches: ["❤️", "heart", "love"] },
  { name: "like", matches: ["👍", "+1", "thumbsup", "like"] },
  { name: "dislike", matches: ["👎", "-1", "thumbsdown", "dislike"] },
  { name: "laugh", matches: ["😂", "🤣", "haha", "laugh"] },
  { name: "emphasize", matches: ["‼️", "!!", "emphasize"] },
  { name: "question", matches: ["❓", "?", "question"] },
]);

/** Whether `value` is one of the six tapback kinds. */
export function isTapbackKind(value: string): value is TapbackKind {
  return (TAPBACK_KINDS as readonly string[]).includes(value);
}

/** A tapback as an inbound message states it: which kind (or emoji), and added or removed. */
export interface TapbackType {
  kind: TapbackKind | "emoji";
  removed: boolean;
}

/**
 * Reads `associatedMessageType`: a name (`love`, `-love`, `emoji`, `-emoji`, also `emphasis`) as
 * the server's `MessageTypeTransformer` writes it, or a chat.db number (2000–2006 add, 3000–3006
 * remove), as a number or a numeric string (`"2006"`: what the transformer passes through
 * unmapped). Anything else (`sticker`, 1000, 2007, …) is not a tapback.
 */
export function parseTapbackType(value: string | number | null | undefined): TapbackType | undefined {
  if (value === null || value === undefined) return undefined;
  const text = String(value).trim();
  if (/^\d+$/u.test(text)) {
    const numeric = Number(text);
    const removed = numeric >= 3000 && numeric <= 3006;
    if (!removed && !(numeric >= 2000 && numeric <= 2006)) return undefined;
    const index = numeric % 1000;
    return { kind: index === 6 ? "emoji" : (TAPBACK_KINDS[index] as TapbackKind), removed };
  }
  const removed = text.startsWith("-");
  const name = (removed ? text.slice(1) : text).toLowerCase();
  const kind = name === "emphasis" ? "emphasize" : name;
  if (kind === "emoji") return { kind, removed };
  return isTapbackKind(kind) ? { kind, removed } : undefined;
}

/**
 * The emoji of an arbitrary-emoji tapback read from its row's text (`Reacted 🎉 to “…”`, the
 * only place BlueBubbles carries it): the first emoji before the quoted message.
 */
export function emojiOfTapbackText(text: string | null | undefined): string | undefined {
  const before = (text ?? "").split("“")[0] ?? "";
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(before)) {
    if (/\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(segment)) return segment;
  }
  return undefined;
}

/** The tapped message's GUID without the part prefix (`p:0/<guid>`, `bp:<guid>`). */
export function targetGuid(associated: string): { guid: string; part: number } {
  const part = /^p:(\d+)\/(.+)$/u.exec(associated);
  if (part) return { guid: part[2] as string, part: Number(part[1]) };
  const balloon = /^bp:(.+)$/u.exec(associated);
  return { guid: balloon ? (balloon[1] as string) : associated, part: 0 };
}
