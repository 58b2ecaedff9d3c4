import type { Readable } from "node:stream";
import { Readable as NodeReadable } from "node:stream";
import { tooLarge } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import type { Context } from "hono";
import { type ChunkReader, discard } from "./body-limit.js";

/** Bytes of a multipart body besides its file (boundaries, part headers, small fields) that do not count as the medium's. */
export const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * A request body with a cap that does not hang up: past `maxBytes` the stream errors (`E_TOO_LARGE`)
 * while the request stays readable, so `discardRest` can read a bounded rest before the 413 (a
 * client still writing its body when the answer comes would see the connection reset instead).
 */
export interface CappedBody {
  readonly stream: ReadableStream<Uint8Array>;
  /** Reads and drops what is left, up to `budget` bytes or `ms`; never throws. */
  discardRest(budget: number, ms: number): Promise<void>;
}

/**
 * The request's body as Node reads it: the adapter's `IncomingMessage` when the gateway serves
 * (its chunks as the HTTP parser gives them, where the adapter's web body copies each one), else
 * the web body (a request made in process); undefined when there is none.
 */
export function requestBody(c: Context): Readable | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (incoming instanceof NodeReadable) return incoming;
  const body = c.req.raw.body;
  return body ? NodeReadable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>) : undefined;
}

/** `body` capped at `maxBytes` without hanging up (see `CappedBody`), read as a web stream without a copy. */
export function cappedBody(body: Readable, maxBytes: number, what: string): CappedBody {
  const reader = chunkReader(body);
  let seen = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        seen += value.byteLength;
        if (seen > maxBytes) return controller.error(tooLarge(what, maxBytes));
        controller.enqueue(value);
      },
      // A consumer that gives up (the store refused the medium) leaves the rest to `discardRest`.
      cancel: () => undefined,
    },
    { highWaterMark: 0 },
  );
  return { stream, discardRest: (budget, ms) => discard(reader, budget, ms) };
}

/** Reads and drops up to `budget` bytes of `body` until it ends or `ms` passed; never throws. */
export function discardBody(body: Readable, budget: number, ms: number): Promise<void> {
  return discard(chunkReader(body), budget, ms);
}

/**
 * A Node stream's chunks one read at a time, as `Uint8Array` views of its buffers; it is left
 * as it is when the reading stops (the adapter drains or closes the request after the answer).
 */
function chunkReader(readable: Readable): ChunkReader {
  const chunks = readable.iterator({ destroyOnReturn: false });
  return {
    async read() {
      const { done, value } = await chunks.next();
      if (done) return { done: true, value: undefined };
      const chunk = value as Buffer;
      return { done: false, value: new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength) };
    },
    releaseLock: () => undefined,
  };
}

/** A Node stream as a web stream read only as fast as it is read; cancelling it drains the Node stream to nowhere. */
function webStreamOf(readable: Readable): ReadableStream<Uint8Array> {
  const chunks = readable[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await chunks.next();
          if (done) controller.close();
          else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        } catch (error) {
          controller.error(error);
        }
      },
      cancel() {
        readable.resume();
      },
    },
    { highWaterMark: 0 },
  );
}

/** The file part of a multipart upload as it streams in: its bytes, and the name and type its part gave. */
export interface UploadedPart {
  readonly stream: ReadableStream<Uint8Array>;
  readonly filename?: string;
  readonly mime?: string;
}

/**
 * Streams the field `file` of a `multipart/form-data` body to `take` (busboy, loaded on the first
 * multipart upload); other parts are read past. `E_INVALID_INPUT` when there is no `file` part.
 */
export async function takeMultipartFile<T>(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  take: (part: UploadedPart) => Promise<T>,
): Promise<T> {
  const { Busboy } = await import("@fastify/busboy");
  const parser = Busboy({
    headers: { "content-type": contentType },
    limits: { files: 1, fields: 32, fieldSize: 4096 },
  });
  const source = NodeReadable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
  return new Promise<T>((resolve, reject) => {
    let taken = false;
    let part: Readable | undefined;
    const fail = (error: unknown) => {
      source.unpipe(parser);
      // A file part still being read ends with the error, so whoever reads it stops too.
      part?.destroy(error instanceof Error ? error : undefined);
      source.destroy();
      reject(error);
    };
    parser.on("file", (field, file, filename, _encoding, mime) => {
      if (field !== "file" || taken) {
        file.resume();
        return;
      }
      taken = true;
      part = file;
      take({
        stream: webStreamOf(file),
        ...(filename ? { filename } : {}),
        ...(mime && mime !== "application/octet-stream" ? { mime } : {}),
      }).then(resolve, fail);
    });
    parser.on("finish", () => {
      if (!taken) reject(new ChorusError("E_INVALID_INPUT", "the multipart body has no part named file"));
    });
    parser.on("error", (error: unknown) =>
      fail(
        error instanceof ChorusError ? error : new ChorusError("E_INVALID_INPUT", "the multipart body is malformed"),
      ),
    );
    source.on("error", fail);
    source.pipe(parser);
  });
}
