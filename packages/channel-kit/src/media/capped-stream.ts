import { ChorusError, formatBytes } from "@chorus/core";

/** What a refusal of a medium over a platform's limit adds: the medium's kind, and what to do instead. */
export interface TooLargeExtra {
  kind?: string;
  hint?: string;
}

/** `E_TOO_LARGE` for a medium over `limit` bytes (`size` where it is known). */
export function tooLarge(what: string, limit: number, size?: number, extra: TooLargeExtra = {}): ChorusError {
  // "is 5 MB, over 5 MB" says nothing: where both round alike, only the limit is named.
  const shown = size === undefined || formatBytes(size) === formatBytes(limit) ? undefined : formatBytes(size);
  const over = shown === undefined ? `is over ${formatBytes(limit)}` : `is ${shown}, over ${formatBytes(limit)}`;
  return new ChorusError("E_TOO_LARGE", `${what} ${over}.`, {
    details: {
      limit,
      ...(size !== undefined ? { size } : {}),
      ...(extra.kind !== undefined ? { kind: extra.kind } : {}),
    },
    ...(extra.hint !== undefined ? { hint: extra.hint } : {}),
  });
}

/**
 * `source` passed through, read only as fast as the consumer reads; past `maxBytes` it fails with
 * `E_TOO_LARGE` and cancels the source, so a download over its cap is stopped, never buffered.
 */
export function capStream(
  source: ReadableStream<Uint8Array>,
  maxBytes: number,
  what: string,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let seen = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        seen += value.byteLength;
        if (seen > maxBytes) {
          await reader.cancel().catch(() => undefined);
          return controller.error(tooLarge(what, maxBytes));
        }
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/** Reads a stream into one buffer, failing with `E_TOO_LARGE` past `maxBytes` (for libraries that take bytes, not streams). */
export async function collectBytes(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  what: string,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of capStream(stream, maxBytes, what)) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A stream of `bytes` (a medium already in memory, for `OutboundMedium.open`). */
export function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
