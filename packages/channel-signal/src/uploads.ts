import { randomUUID } from "node:crypto";
import { ChorusError, type OutboundMedium } from "@chorus/core";
import type { StreamedBody } from "./streamed-rpc.js";

/** A MIME type signal-cli's `data:` URI pattern reads as one (`type/subtype`, no parameters). */
const MIME = /^[A-Za-z0-9][\w.+-]*\/[A-Za-z0-9][\w.+-]*$/;
/** Bytes encoded to base64 at a time: a multiple of 3, so the pieces join into one string. */
const CHUNK = 48 * 1024;

/** Characters of the base64 of `size` bytes (padded, as Java's decoder wants it). */
export const base64Length = (size: number): number => 4 * Math.ceil(size / 3);

/**
 * The start of a medium's `data:` URI, before its base64: `data:<mime>;filename=<name>;base64,`,
 * the form signal-cli reads as an attachment with its real name (`DataURI`, RFC 2397 with a
 * `filename` parameter, URL-decoded; man signal-cli(1), `send --attachment`). Only the type and
 * subtype of the MIME type, which its pattern reads; the name percent-encoded, so `;`, `,` and
 * `=` in it cannot end the parameter.
 */
export function dataUriHead(medium: Pick<OutboundMedium, "mime" | "filename" | "kind">): string {
  const type = medium.mime.split(";")[0]?.trim() ?? "";
  const name = medium.filename.trim() === "" ? medium.kind : medium.filename;
  return `data:${MIME.test(type) ? type : "application/octet-stream"};filename=${encodeURIComponent(name)};base64,`;
}

/** Characters of a medium's whole `data:` URI. */
export const dataUriLength = (medium: OutboundMedium): number => dataUriHead(medium).length + base64Length(medium.size);

/**
 * The JSON-RPC request `request` with `params.attachments` (signal-cli's `--attachment`, plural
 * in JSON-RPC) holding each medium as a `data:` URI, as a body streamed while the media are read:
 * each medium is opened when its turn comes and encoded to base64 chunk by chunk, so no medium is
 * held whole. Its length is exact; a medium that gives other than its `size` fails the body.
 */
export function attachmentsBody(
  request: { params: Record<string, unknown> },
  media: readonly OutboundMedium[],
): StreamedBody {
  const mark = `chorus-attachments-${randomUUID()}`;
  const json = JSON.stringify({ ...request, params: { ...request.params, attachments: mark } });
  const [before, after] = json.split(`"${mark}"`) as [string, string];
  const heads = media.map((m) => `"${dataUriHead(m)}`);
  const length =
    Buffer.byteLength(before) +
    Buffer.byteLength(after) +
    2 + // [ ]
    Math.max(0, media.length - 1) + // commas
    media.reduce((sum, m, i) => sum + (heads[i] as string).length + base64Length(m.size) + 1, 0);
  return { length, open: () => iterableStream(pieces(before, after, heads, media)) };
}

async function* pieces(
  before: string,
  after: string,
  heads: readonly string[],
  media: readonly OutboundMedium[],
): AsyncGenerator<Uint8Array> {
  const text = (value: string) => new TextEncoder().encode(value);
  yield text(`${before}[`);
  for (const [index, medium] of media.entries()) {
    yield text(`${index > 0 ? "," : ""}${heads[index]}`);
    yield* base64Of(medium);
    yield text('"');
  }
  yield text(`]${after}`);
}

/** A medium's bytes as base64 text, in pieces that join into one string. */
async function* base64Of(medium: OutboundMedium): AsyncGenerator<Uint8Array> {
  let rest: Uint8Array = new Uint8Array(0);
  let seen = 0;
  for await (const chunk of medium.open()) {
    seen += chunk.byteLength;
    if (seen > medium.size) break;
    const joined = Buffer.concat([rest, chunk]);
    // Whole groups of 3 bytes encode to base64 that joins with what follows; the rest waits.
    const whole = joined.byteLength - (joined.byteLength % 3);
    for (let at = 0; at < whole; at += CHUNK) {
      yield Buffer.from(joined.subarray(at, Math.min(whole, at + CHUNK)).toString("base64"), "latin1");
    }
    rest = joined.subarray(whole);
  }
  if (seen !== medium.size) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `"${medium.filename}" gave ${seen > medium.size ? "more" : "fewer"} bytes than its size (${medium.size})`,
    );
  }
  if (rest.byteLength > 0) yield Buffer.from(Buffer.from(rest).toString("base64"), "latin1");
}

function iterableStream(source: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await source.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel() {
        await source.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
