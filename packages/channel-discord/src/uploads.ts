import { type MultipartBody, multipartBody, tooLarge } from "@chorus/channel-kit";
import type { OutboundMedium } from "@chorus/core";
import { DISCORD_MAX_MESSAGE_MEDIA_BYTES, DISCORD_MAX_UPLOAD_BYTES } from "./media.js";

/** What an error may show of an uploaded file: its name, type and size, never its bytes. */
export interface UploadedFile {
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
}

/**
 * The files of one message and its JSON body (`payload_json`), sent as Discord documents it
 * (developers/reference.mdx "Uploading Files"): `files[n]` parts, then `payload_json` with
 * `attachments: [{ id: n, filename }]`. Handed to discord.js' REST as a passed-through body
 * (`uploadRequest` sends it), so its queue keeps the auth header, the rate-limit buckets and the
 * retries; each attempt is a fresh `form()` whose media are opened anew and read only as the
 * socket takes them, never whole in memory.
 */
export class MessageUpload {
  readonly #media: readonly OutboundMedium[];
  /** The message's JSON body, `attachments` included. */
  readonly payload: Record<string, unknown>;

  constructor(media: readonly OutboundMedium[], payload: Record<string, unknown>) {
    this.#media = media;
    this.payload = { ...payload, attachments: media.map((medium, id) => ({ id, filename: medium.filename })) };
  }

  /** Names, types and sizes of the files, for errors. */
  get files(): UploadedFile[] {
    return this.#media.map((m) => ({ name: m.filename, contentType: m.mime, size: m.size }));
  }

  /**
   * A new body for one attempt: each medium's `open()` (called again per attempt, as
   * `OutboundMedium` allows) read as the form is read; the kit's form holds each to its declared
   * size and says which medium broke it off (`failure()`).
   */
  form(): MultipartBody {
    return multipartBody([
      ...this.#media.map((medium, id) => ({
        name: `files[${id}]`,
        filename: medium.filename,
        contentType: medium.mime,
        size: medium.size,
        open: () => medium.open(),
      })),
      { name: "payload_json", value: JSON.stringify(this.payload) },
    ]);
  }
}

/** Media over Discord's limits (10 MiB a file, the message's share of 25 MiB) are `E_TOO_LARGE`, before any is opened. */
export function checkUploadLimits(media: readonly OutboundMedium[]): void {
  for (const medium of media) {
    if (medium.size > DISCORD_MAX_UPLOAD_BYTES)
      throw tooLarge(`"${medium.filename}"`, DISCORD_MAX_UPLOAD_BYTES, medium.size);
  }
  const total = media.reduce((sum, medium) => sum + medium.size, 0);
  if (total > DISCORD_MAX_MESSAGE_MEDIA_BYTES) {
    throw tooLarge("The files of one Discord message", DISCORD_MAX_MESSAGE_MEDIA_BYTES, total);
  }
}

/** The content of a message with media: its text, then the items' own captions (Discord has one text per message). */
export function contentOf(text: string, media: readonly OutboundMedium[]): string {
  return [text, ...media.map((medium) => medium.caption ?? "")].filter((part) => part.trim() !== "").join("\n\n");
}
