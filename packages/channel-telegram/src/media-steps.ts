import { tooLarge } from "@chorus/channel-kit";
import {
  formatBytes,
  type GeoLocation,
  type OutboundMedium,
  type OutboundMessage,
  sendLimitOf,
  splitText,
} from "@chorus/core";
import { TELEGRAM_MAX_ALBUM, TELEGRAM_MAX_CAPTION, TELEGRAM_MAX_UPLOAD, telegramMediaCapabilities } from "./media.js";

/** Telegram's limit for one message's text, in characters after entity parsing. */
export const TELEGRAM_MAX_TEXT = 4096;

/** One medium of a step, with the caption it carries. */
export interface StepItem {
  readonly medium: OutboundMedium;
  readonly caption?: string;
}

/** One Bot API send of an outbound message. */
export type TelegramStep =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "single"; readonly item: StepItem }
  | { readonly kind: "album"; readonly items: readonly StepItem[] }
  | { readonly kind: "location"; readonly location: GeoLocation };

/** Which media may share an album (`sendMediaGroup`): photos and videos mix; audio only with audio, documents only with documents. */
type Family = "visual" | "audio" | "document";

function familyOf(medium: OutboundMedium): Family | undefined {
  if (medium.kind === "image" || medium.kind === "video") return "visual";
  if (medium.kind === "audio") return "audio";
  if (medium.kind === "file") return "document";
  return undefined; // a voice note or a sticker is always a message of its own
}

/**
 * The Bot API sends of one outbound message (planned by core), in order:
 * 1. its text, when it has one, in 4096-character parts;
 * 2. its media: consecutive items that can share an album (at most 10, 50 MB together: one
 *    request) go as one `sendMediaGroup`; an album of one is a single send; items that cannot share
 *    one go as separate messages, in their order;
 * 3. a caption longer than Telegram's 1024 characters goes as its own text message right before the
 *    send carrying its medium, which then has none: cut short it would lose words, and a text
 *    message takes 4096;
 * 4. its location, as a pin.
 */
export function telegramSteps(message: OutboundMessage): TelegramStep[] {
  const steps: TelegramStep[] = [];
  const texts = (text: string) => {
    for (const part of splitText(text, TELEGRAM_MAX_TEXT)) steps.push({ kind: "text", text: part });
  };
  if (message.text.trim() !== "") texts(message.text);
  for (const run of runsOf(message.media ?? [])) {
    const items = run.map((medium): StepItem => {
      const caption = medium.caption?.trim() ? medium.caption : undefined;
      if (caption === undefined) return { medium };
      if (caption.length > TELEGRAM_MAX_CAPTION) {
        texts(caption);
        return { medium };
      }
      return { medium, caption };
    });
    steps.push(items.length === 1 ? { kind: "single", item: items[0] as StepItem } : { kind: "album", items });
  }
  if (message.location) steps.push({ kind: "location", location: message.location });
  return steps;
}

/** Consecutive media that can go as one album. */
function runsOf(media: readonly OutboundMedium[]): OutboundMedium[][] {
  const runs: OutboundMedium[][] = [];
  let run: OutboundMedium[] = [];
  let bytes = 0;
  for (const medium of media) {
    const family = familyOf(medium);
    const last = run[0];
    const joins =
      family !== undefined &&
      last !== undefined &&
      familyOf(last) === family &&
      run.length < TELEGRAM_MAX_ALBUM &&
      bytes + medium.size <= TELEGRAM_MAX_UPLOAD;
    if (!joins && run.length > 0) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(medium);
    bytes += medium.size;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * Refuses, before anything is sent, a medium over the limit of the kind it goes out as (50 MB, a
 * photo 10 MB): Telegram would refuse it after the upload, and part of the message would be out.
 */
export function checkMediaLimits(media: readonly OutboundMedium[]): void {
  for (const medium of media) {
    const limit = sendLimitOf(telegramMediaCapabilities, medium.kind);
    if (medium.size > limit) {
      const photo = medium.kind === "image";
      throw tooLarge(`"${medium.filename}"`, limit, medium.size, {
        kind: medium.kind,
        hint: photo
          ? `Telegram takes photos of up to ${formatBytes(limit)}; send it as a file (up to ${formatBytes(TELEGRAM_MAX_UPLOAD)}).`
          : `Telegram takes uploads of up to ${formatBytes(limit)}.`,
      });
    }
  }
}
