import { type MultipartBody, multipartBody, tooLarge } from "@chorus/channel-kit";
import { ChorusError, type OutboundMedium, toChorusError } from "@chorus/core";
import { DISCORD_MAX_MESSAGE_MEDIA_BYTES, DISCORD_MAX_UPLOAD_BYTES } from "./media.js";

/** What an error may show of an uploaded file: its name, type and size, never its bytes. */
export interface UploadedFile {
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
}

/** One attempt's `multipart/form-data` body, and what made it fail (a medium's stream), once it did. */
export interface UploadForm extends MultipartBody {
  failure(): unknown;
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
   * `OutboundMedium` allows) read as the form is read, and held to its declared size: one byte
   * more or fewer fails the attempt before the form's closing boundary, so Discord never gets a
   * complete request with a wrong file.
   */
  form(): UploadForm {
    let failure: unknown;
    const failed = (error: unknown) => {
      failure ??= error;
      return failure;
    };
    const body = multipartBody([
      ...this.#media.map((medium, id) => ({
        name: `files[${id}]`,
        filename: medium.filename,
        contentType: medium.mime,
        size: medium.size,
        open: () => exactly(medium, failed),
      })),
      { name: "payload_json", value: JSON.stringify(this.payload) },
    ]);
    return { ...body, failure: () => failure };
  }
}

/** The medium's stream, failing (and recording why with `failed`) as soon as it gives more or fewer bytes than `size`. */
function exactly(medium: OutboundMedium, failed: (error: unknown) => unknown): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let seen = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          reader ??= medium.open().getReader();
          const { done, value } = await reader.read();
          if (done) {
            if (seen !== medium.size) controller.error(failed(mismatch(medium, seen)));
            else controller.close();
            return;
          }
          seen += value.byteLength;
          if (seen > medium.size) {
            await reader.cancel().catch(() => undefined);
            controller.error(failed(mismatch(medium, seen)));
          } else {
            controller.enqueue(value);
          }
        } catch (error) {
          controller.error(failed(toChorusError(error, `"${medium.filename}" could not be read for the upload`)));
        }
      },
      cancel: (reason) => reader?.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

function mismatch(medium: OutboundMedium, seen: number): ChorusError {
  const gave = seen > medium.size ? `more than ${medium.size} bytes` : `${seen} bytes`;
  return new ChorusError(
    "E_INVALID_INPUT",
    `"${medium.filename}" gave ${gave}, ${medium.size} were declared: the upload was stopped, nothing was sent.`,
    { retryable: false, details: { declared: medium.size, read: seen } },
  );
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
