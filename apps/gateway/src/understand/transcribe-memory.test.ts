import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { forceGc } from "../testing/index.js";
import { Transcriber } from "./transcribe.js";

const MB = 1024 * 1024;
const CHUNK = 256 * 1024;
const gc = forceGc();

/** An `/audio/transcriptions` that reads the upload, keeps nothing of it, and answers how much it read. */
async function discardingEndpoint(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    let received = 0;
    request.on("data", (chunk: Buffer) => {
      received += chunk.byteLength;
    });
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ text: `${received} bytes` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("transcription uploads", () => {
  let endpoint: Awaited<ReturnType<typeof discardingEndpoint>> | undefined;
  afterEach(async () => {
    await endpoint?.close();
  });

  it("stream a long recording without holding it: live buffers stay far under its size", async () => {
    endpoint = await discardingEndpoint();
    const size = 24 * MB;
    gc();
    const base = process.memoryUsage().arrayBuffers;
    let sent = 0;
    let peak = 0;
    // Made as it is read, a fresh chunk each time; every 4 MB the garbage is collected and what is still alive measured.
    const open = () =>
      new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            if (sent >= size) return controller.close();
            if (sent % (4 * MB) === 0) {
              gc();
              peak = Math.max(peak, process.memoryUsage().arrayBuffers - base);
            }
            controller.enqueue(new Uint8Array(CHUNK).fill(sent / CHUNK));
            sent += CHUNK;
          },
        },
        { highWaterMark: 0 },
      );
    const transcriber = new Transcriber({
      provider: "openai-compatible",
      baseURL: endpoint.url,
      model: "whisper-1",
      timeoutMs: 60_000,
    } as never);
    const text = await transcriber.transcribe({ open, size, mime: "audio/ogg", filename: "long.ogg" });
    expect(Number.parseInt(text, 10)).toBeGreaterThan(size);
    // Chunks in flight (socket buffers on both ends, in this one process) are a few MB; a teed request
    // body (undici's fetch, to follow redirects: nodejs/undici#4058) keeps every chunk sent, ~20 MB by the last check.
    expect(peak).toBeLessThan(12 * MB);
  });
});
