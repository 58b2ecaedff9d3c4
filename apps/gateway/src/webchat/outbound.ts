import {
  ChorusError,
  type ConversationAddress,
  type MessageRef,
  type OutboundMedium,
  type OutboundMessage,
  type RefScope,
  splitText,
} from "@chorus/core";
import type { WebchatHub } from "./hub.js";
import { webchatRef } from "./inbound.js";
import { cleanFilename, cleanMime, MAX_ATTACHMENTS, MAX_MEDIUM_BYTES, mediumTooLarge } from "./media-kinds.js";
import { newMediumId, type WebchatMedia } from "./media-store.js";
import { BOT_ID, type WebchatMedium } from "./types.js";
import { MAX_MESSAGE_LENGTH } from "./validate.js";

/** The webchat's `send`. */
export type WebchatSend = (conversation: ConversationAddress, message: OutboundMessage) => Promise<MessageRef>;

/**
 * The bot's messages into the hub: text split at the webchat's limit, and media planned by core
 * stored in the gateway's media store (each streamed from `open()`, checked against the limit
 * before a byte is read; without a store, media are refused) and shown with the first part, their
 * captions as its text; a location as a pin.
 */
export function createWebchatOutbound(hub: WebchatHub, media: WebchatMedia | undefined, scope: RefScope): WebchatSend {
  return async (conversation, message) => {
    const replyTo = message.replyTo?.messageId;
    // A reply target that aged out of the room's history is dropped, not the reply.
    const replyKept = replyTo !== undefined && hub.message(replyTo)?.room === conversation.id;
    const stored = await store(media, message.media ?? []);
    const captions = (message.media ?? []).map((medium) => medium.caption ?? "");
    const text = [message.text, ...captions].filter((part) => part.trim() !== "").join("\n\n");
    let first: MessageRef | undefined;
    try {
      for (const [index, part] of splitText(text, MAX_MESSAGE_LENGTH).entries()) {
        const posted = hub.post(conversation.id, BOT_ID, part, {
          ...(index === 0 && replyKept ? { replyTo } : {}),
          ...(index === 0 && message.mentions ? { mentions: message.mentions } : {}),
          ...(index === 0 && stored.length > 0 ? { media: stored } : {}),
          ...(index === 0 && message.location ? { location: message.location } : {}),
        });
        first ??= webchatRef(posted, scope);
      }
    } catch (error) {
      // Nothing was posted: the media stored for it go.
      if (first === undefined) await Promise.all(mediaIdsOf(stored).map((id) => media?.remove(id)));
      throw error;
    }
    return first as MessageRef;
  };
}

/** Stores each medium in the media store (all refused before any is read when one is over the limit). */
async function store(into: WebchatMedia | undefined, media: readonly OutboundMedium[]): Promise<WebchatMedium[]> {
  if (media.length === 0) return [];
  if (!into)
    throw new ChorusError("E_UNSUPPORTED", "this webchat keeps no media (it runs without the gateway's media store)");
  if (media.length > MAX_ATTACHMENTS) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `${media.length} media on one message; the webchat shows ${MAX_ATTACHMENTS}`,
      {
        hint: "Plan the send with core's planMedia: it splits media into messages of perMessage items.",
      },
    );
  }
  for (const medium of media) {
    if (medium.size > MAX_MEDIUM_BYTES) throw mediumTooLarge(medium.filename, medium.size);
  }
  const stored: WebchatMedium[] = [];
  try {
    for (const medium of media) {
      const filename = cleanFilename(medium.filename, `${medium.kind}`);
      const { mediaId, size } = await into.put(medium.open(), { maxBytes: MAX_MEDIUM_BYTES, filename });
      stored.push({ id: newMediumId(), mediaId, kind: medium.kind, mime: cleanMime(medium.mime), filename, size });
    }
  } catch (error) {
    await Promise.all(mediaIdsOf(stored).map((id) => into.remove(id)));
    throw error;
  }
  return stored;
}

/** The store ids of `media`. */
function mediaIdsOf(media: readonly WebchatMedium[]): string[] {
  return media.flatMap((medium) => (medium.mediaId === undefined ? [] : [medium.mediaId]));
}
