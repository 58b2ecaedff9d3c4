import type { SignalMention } from "./wire.js";

/** The character Signal puts in a body where a mention is; `mentions[]` says who (UTF-16 offsets). */
export const MENTION_PLACEHOLDER = "\uFFFC";

/** The text with each mention's placeholder replaced by `@<label>`; offsets are UTF-16 units, as JS strings count. */
export function resolveMentions(
  body: string,
  mentions: readonly SignalMention[],
  label: (mention: SignalMention) => string,
): string {
  let text = body;
  // From the end, so earlier offsets stay valid while the text grows.
  const ordered = [...mentions].sort((a, b) => b.start - a.start);
  for (const mention of ordered) {
    const end = mention.start + Math.max(1, mention.length);
    if (end > text.length || !text.slice(mention.start, end).includes(MENTION_PLACEHOLDER)) continue;
    text = `${text.slice(0, mention.start)}@${label(mention)}${text.slice(end)}`;
  }
  return text;
}

/** A mention to send: `start:length:<uuid or number>` over a placeholder in the body. */
export interface OutgoingMention {
  readonly start: number;
  readonly length: number;
  readonly who: string;
}

/** A text with its mentions placed, and where each offset of the original text went. */
export interface PlacedMentions {
  readonly text: string;
  readonly mentions: OutgoingMention[];
  /** The offset in `text` of an offset in the original text. */
  readonly moved: (offset: number) => number;
}

/**
 * Puts the mentions of `ids` into `text`: an `@<id>` the text already has becomes the mention's
 * placeholder; an id it does not name gets a placeholder in front. Signal shows each placeholder
 * as the person's name.
 */
export function placeMentions(text: string, ids: readonly string[]): PlacedMentions {
  const inText: { at: number; who: string }[] = [];
  const front: string[] = [];
  for (const id of new Set(ids)) {
    const at = text.indexOf(`@${id}`);
    if (at < 0 || inText.some((m) => at < m.at + m.who.length + 1 && m.at < at + id.length + 1)) front.push(id);
    else inText.push({ at, who: id });
  }
  inText.sort((a, b) => a.at - b.at);
  const prefix = front.map(() => `${MENTION_PLACEHOLDER} `).join("");
  const moved = (offset: number) => {
    let shift = prefix.length;
    for (const m of inText) if (m.at < offset) shift -= Math.min(m.who.length, offset - m.at - 1);
    return offset + shift;
  };
  let body = "";
  let from = 0;
  for (const m of inText) {
    body += text.slice(from, m.at) + MENTION_PLACEHOLDER;
    from = m.at + m.who.length + 1;
  }
  body += text.slice(from);
  const mentions = [
    ...front.map((who, index) => ({ start: index * 2, length: 1, who })),
    ...inText.map(({ at, who }) => ({ start: moved(at), length: 1, who })),
  ];
  return { text: prefix + body, mentions, moved };
}
