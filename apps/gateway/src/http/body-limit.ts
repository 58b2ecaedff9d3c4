import type { Context, MiddlewareHandler } from "hono";

export interface BodySizeLimitOptions {
  maxSize: number;
  onError(c: Context): Response | Promise<Response>;
  /** How long the rest of a refused body is read before answering anyway (default 5 s). */
  discardMs?: number | undefined;
}

/**
 * Past this much of a refused body (4× the limit, at least the limit + 8 MiB: more than loopback's
 * socket buffers hold), the answer does not wait for the rest.
 */
export function discardBound(maxSize: number): number {
  return Math.max(4 * maxSize, maxSize + 8 * 1024 * 1024);
}

/**
 * Refuses a request body over `maxSize` with `onError` (413). It decides from the headers when
 * they tell (no body for GET and HEAD, a Content-Length without Transfer-Encoding) before it
 * touches `request.body`: that getter makes the Node adapter build a web `Request` around a stream
 * for every request, where the handler's `arrayBuffer()` or `json()` would read the socket directly
 * (most of a webhook's cost with many accounts). A body sent without a length is counted as it
 * streams.
 *
 * A refused body is read and thrown away (up to `discardBound`, within `discardMs`) before the
 * answer: a client such as `fetch` still writing its body when the server answers and closes sees
 * `EPIPE` instead of the 413. Answering after the body arrived lets it read the status and message.
 */
export function bodySizeLimit(options: BodySizeLimitOptions): MiddlewareHandler {
  const bound = discardBound(options.maxSize);
  const discardMs = options.discardMs ?? 5_000;
  const refuse = async (c: Context, reader: Reader | undefined, read: number): Promise<Response> => {
    if (reader) await discard(reader, bound - read, discardMs);
    return options.onError(c);
  };
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined) {
      const declared = Number.parseInt(length, 10);
      if (!(declared > options.maxSize)) return next();
      // More than the bound is not waited for: the client is told at once, and the connection closes.
      return refuse(c, declared <= bound ? c.req.raw.body?.getReader() : undefined, 0);
    }
    const body = c.req.raw.body;
    if (!body) return next();
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > options.maxSize) return refuse(c, reader, size);
      chunks.push(value);
    }
    c.req.raw = new Request(c.req.raw, { body: concat(chunks, size) });
    return next();
  };
}

type Reader = ReadableStreamDefaultReader<Uint8Array>;

/** What `discard` reads a body through: a web stream's reader, or the like over a Node stream. */
export type ChunkReader = Pick<Reader, "read" | "releaseLock">;

/** Reads and drops up to `budget` bytes until the body ends or `ms` passed; never throws. */
export async function discard(reader: ChunkReader, budget: number, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    let left = budget;
    while (left > 0) {
      const next = await Promise.race([reader.read(), timeout]);
      if (next === "timeout" || next.done) return;
      left -= next.value.byteLength;
    }
  } catch {
    // The client went away: nothing left to answer to, the adapter cleans up.
  } finally {
    clearTimeout(timer);
    // A read still pending after the timeout is rejected by the release; nothing waits for it.
    try {
      reader.releaseLock();
    } catch {}
  }
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}
