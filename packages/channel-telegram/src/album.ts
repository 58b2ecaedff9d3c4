import type { Attachment, InboundEvent, InboundMessageEvent } from "@chorus/core";

/**
 * How long the receiver waits for the next item of an album: items whose updates arrive within this
 * of each other are one message (DESIGN §2.6). Telegram sends an album as one update per item, each
 * with the album's `media_group_id`, and says nothing of how many there are.
 */
export const ALBUM_WINDOW_MS = 1_000;

/** The items of one album, as their updates arrived: what the receiver turns into one message event. */
export class AlbumParts {
  constructor(readonly updates: readonly unknown[]) {}
}

/** `<chat id>/<media_group_id>` of an update that carries an album item; undefined for anything else. */
export function albumKeyOf(update: unknown): string | undefined {
  const message = (update as { message?: { chat?: { id?: unknown }; media_group_id?: unknown } } | null)?.message;
  const chatId = message?.chat?.id;
  const group = message?.media_group_id;
  return typeof chatId === "number" && typeof group === "string" && group !== "" ? `${chatId}/${group}` : undefined;
}

/** The chat id of a message update (to keep a chat's messages in order behind an open album). */
export function chatOf(update: unknown): number | undefined {
  const chatId = (update as { message?: { chat?: { id?: unknown } } } | null)?.message?.chat?.id;
  return typeof chatId === "number" ? chatId : undefined;
}

/** The `update_id` of an update, where it has one. */
export function updateIdOf(update: unknown): number | undefined {
  const id = (update as { update_id?: unknown } | null)?.update_id;
  return typeof id === "number" && Number.isSafeInteger(id) ? id : undefined;
}

/**
 * The message events of an album's items (in update order) as one message: the first item's ids
 * (its `update_id` is the event id, its message the ref, so a redelivered album repeats both), the
 * attachments of all items in order, the caption wherever it was (several are joined by a blank
 * line), every mention and the reply of whichever item has them.
 */
export function mergeAlbum(events: readonly InboundEvent[]): InboundMessageEvent | undefined {
  const items = events.filter((e): e is InboundMessageEvent => e.type === "message");
  const [first] = items;
  if (!first) return undefined;
  const attachments: Attachment[] = items.flatMap((item) => item.attachments ?? []);
  const texts = items.map((item) => item.text).filter((text) => text.trim() !== "");
  const reply = items.find((item) => item.replyTo)?.replyTo;
  const others = [...new Set(items.flatMap((item) => item.mentions.others))];
  return {
    ...first,
    text: texts.join("\n\n"),
    mentions: { bot: items.some((item) => item.mentions.bot), others },
    ...(reply ? { replyTo: reply } : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
  };
}
