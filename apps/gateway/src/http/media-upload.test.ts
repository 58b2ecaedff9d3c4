import { Readable } from "node:stream";
import { isChorusError } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { cappedBody } from "./media-upload.js";

/** A Node body of `count` chunks of `size` bytes, each made when it is read (as a socket gives them), and what it handed out. */
function nodeBody(count: number, size: number): { body: Readable; chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const body = new Readable({
    highWaterMark: 0,
    read() {
      const chunk = chunks.length < count ? Buffer.alloc(size, chunks.length + 1) : null;
      if (chunk) chunks.push(chunk);
      this.push(chunk);
    },
  });
  return { body, chunks };
}

describe("cappedBody", () => {
  it("passes the request's chunks on as they are: views of the same bytes, no copy", async () => {
    const { body, chunks } = nodeBody(3, 1024);
    const read: Uint8Array[] = [];
    for await (const chunk of cappedBody(body, 10_000, "The upload").stream) read.push(chunk);
    expect(read).toHaveLength(3);
    expect(read.every((chunk, i) => chunk.buffer === chunks[i]?.buffer && chunk.byteLength === 1024)).toBe(true);
  });

  it("fails past the cap and leaves the rest for discardRest to read", async () => {
    const { body } = nodeBody(4, 1024);
    const capped = cappedBody(body, 1500, "The upload");
    const reader = capped.stream.getReader();
    expect((await reader.read()).value?.byteLength).toBe(1024);
    const error = await reader.read().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isChorusError(error) && error.code).toBe("E_TOO_LARGE");
    await capped.discardRest(1_000_000, 1_000);
    expect(body.readableEnded).toBe(true);
  });
});
