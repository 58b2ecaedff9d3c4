import { type DiscardingServer, meteredBytes, startDiscardingServer } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { MultipartCall, postMultipart } from "./upload.js";

const MB = 1024 * 1024;

describe("multipart uploads", () => {
  let api: DiscardingServer | undefined;
  afterEach(async () => {
    await api?.close();
  });

  it("stream a large file without holding it: live buffers stay far under its size", async () => {
    // A Bot API that keeps nothing of the upload and answers `ok` with the bytes it read.
    api = await startDiscardingServer({ json: (received) => ({ ok: true, result: { received } }) });
    const size = 32 * MB;
    const file = meteredBytes(size);
    const call = new MultipartCall([
      { name: "chat_id", value: "42" },
      { name: "document", filename: "big.bin", contentType: "application/octet-stream", size, open: file.open },
    ]);
    const answer = (await postMultipart(
      { apiRoot: api.url, botToken: "123:abc" },
      "sendDocument",
      call,
      new AbortController().signal,
    )) as { ok: boolean; result: { received: number } };
    expect(answer.ok).toBe(true);
    expect(answer.result.received).toBeGreaterThan(size);
    // Chunks in flight (socket buffers on both ends, in this one process) are a few MB; a teed request
    // body (undici's fetch, to follow redirects: nodejs/undici#4058) keeps every chunk sent, ~28 MB by the last check.
    expect(file.peak()).toBeLessThan(16 * MB);
  });
});
