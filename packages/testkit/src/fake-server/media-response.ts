import type { ServerResponse } from "node:http";
import type { FakeResponse, ResponseHeaders } from "./types.js";

/** Bytes written to the socket at a time. */
const CHUNK = 64 * 1024;

/** How `mediumResponse` answers. */
export interface MediumResponseOptions {
  /** Defaults to 200. */
  status?: number;
  /** `content-type` and the like; `content-length` is set from the bytes unless given. */
  headers?: ResponseHeaders;
  /** Told how many bytes were written, chunk by chunk: a fake's "bytes served" for the download-cap checks. */
  served?(bytes: number): void;
}

/**
 * A medium's bytes as a download answer, the way file servers send them: in chunks, each written
 * once the last drained, so a client that stops reading (a capped download) stops the fake too,
 * and `served` counts only what really went out.
 */
export function mediumResponse(bytes: Uint8Array, options: MediumResponseOptions = {}): FakeResponse {
  return {
    status: options.status ?? 200,
    headers: { "content-length": bytes.byteLength, ...options.headers },
    stream: (res) => {
      void writeChunks(res, bytes, options.served ?? (() => undefined));
    },
  };
}

async function writeChunks(res: ServerResponse, bytes: Uint8Array, served: (bytes: number) => void): Promise<void> {
  for (let offset = 0; offset < bytes.byteLength; offset += CHUNK) {
    if (res.destroyed) return;
    const chunk = bytes.subarray(offset, offset + CHUNK);
    served(chunk.byteLength);
    if (!res.write(chunk)) await drained(res);
  }
  res.end();
}

/** Resolves once `res` drained, or closed (a client gone never drains). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
