import { type DiscardingServer, meteredBytes, startDiscardingServer } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { Transcriber } from "./transcribe.js";

const MB = 1024 * 1024;

describe("transcription uploads", () => {
  let endpoint: DiscardingServer | undefined;
  afterEach(async () => {
    await endpoint?.close();
  });

  it("stream a long recording without holding it: live buffers stay far under its size", async () => {
    // An `/audio/transcriptions` that keeps nothing of the upload and answers how much it read.
    endpoint = await startDiscardingServer({ json: (received) => ({ text: `${received} bytes` }) });
    const size = 24 * MB;
    const recording = meteredBytes(size);
    const transcriber = new Transcriber({
      provider: "openai-compatible",
      baseURL: `${endpoint.url}/v1`,
      model: "whisper-1",
      timeoutMs: 60_000,
    } as never);
    const text = await transcriber.transcribe({
      open: recording.open,
      size,
      mime: "audio/ogg",
      filename: "long.ogg",
    });
    expect(Number.parseInt(text, 10)).toBeGreaterThan(size);
    // Chunks in flight (socket buffers on both ends, in this one process) are a few MB; a teed request
    // body (undici's fetch, to follow redirects: nodejs/undici#4058) keeps every chunk sent, ~20 MB by the last check.
    expect(recording.peak()).toBeLessThan(12 * MB);
  });
});
