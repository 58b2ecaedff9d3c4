import { Redactor } from "@chorus/channel-kit";
import type { OutboundMedium } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { type DiscardingServer, startDiscardingServer } from "../media/discarding-server.js";
import { meteredBytes } from "../media/metered-bytes.js";
import { uploadMedium } from "./upload.js";

const MB = 1024 * 1024;

describe("memory channel upload", () => {
  let platform: DiscardingServer | undefined;
  afterEach(async () => {
    await platform?.close();
  });

  it("streams a large medium without holding it: live buffers stay far under its size", async () => {
    // A platform that keeps nothing of the upload, answering as `POST /v1/uploads` does.
    platform = await startDiscardingServer({
      status: 201,
      json: (received) => ({ id: "up-1", mime: "application/octet-stream", filename: "big.bin", size: received }),
    });
    const size = 32 * MB;
    const bytes = meteredBytes(size);
    const medium: OutboundMedium = {
      kind: "file",
      mime: "application/octet-stream",
      filename: "big.bin",
      size,
      open: bytes.open,
    };
    const config = {
      baseUrl: platform.url,
      token: "memory-token",
      pollWaitMs: 1000,
      retries: 0,
      maxRetryAfterMs: 0,
      timeoutMs: 60_000,
    };
    const upload = await uploadMedium(medium, {
      config,
      maxBytes: 64 * MB,
      signal: new AbortController().signal,
      redactor: new Redactor(),
    });
    expect(upload.size).toBe(size);
    expect(platform.received()).toBe(size);
    // Chunks in flight (socket buffers on both ends, in this one process) are a few MB; a teed request
    // body (undici's fetch, to follow redirects: nodejs/undici#4058) keeps every chunk sent, ~28 MB by the last check.
    expect(bytes.peak()).toBeLessThan(16 * MB);
  });
});
