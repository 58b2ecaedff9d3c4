import type { MediaStore } from "../media/index.js";

/**
 * What the gateway made of one attachment of a message, kept with the message (by its inbox row)
 * so that deciding it again — a turn cut short by a crash, a group message read later as context —
 * downloads and transcribes nothing twice.
 */
export interface ItemRecord {
  /** In the store: its id, and what the bytes are. */
  mediaId?: string;
  mime?: string;
  size?: number;
  filename?: string;
  /** Not downloaded: why (`E_TOO_LARGE: …`, the platform's refusal). */
  failed?: string;
  /** A voice note's or audio's words. */
  transcript?: string;
  /** Why it has no transcript. */
  untranscribed?: string;
}

/** A photo the model sees as image input (the current message only; history keeps its line). */
export interface MessageImage {
  mediaId: string;
  /** `image/png`, `image/jpeg`, `image/webp` or `image/gif`: what every provider takes. */
  mediaType: string;
  data: Uint8Array;
}

/** A message's attachments as the agent gets them. */
export interface Understood {
  /** A line per attachment, in the message's order (see `attachmentLine`). */
  lines: string[];
  /** The photos shown as image input, in the order of their lines; empty without vision. */
  images: MessageImage[];
}

/** The limits attachments are read within. */
export interface MediaLimits {
  /** `media.maxBytes`: the largest medium the gateway keeps (default 25 MiB). */
  maxBytes: number;
  /** `media.maxExtractChars`: how much of a PDF's or text file's text the agent gets (default 20 000). */
  maxExtractChars: number;
}

/** `text`, then the lines, one per line; the lines alone when the message has no text. */
export function withLines(text: string, lines: readonly string[]): string {
  return [text, ...lines].filter((part) => part !== "").join("\n");
}

/** The part of the gateway's media store (`media/`) that attachments are read through. */
export type MediaAccess = Pick<MediaStore, "put" | "open">;
