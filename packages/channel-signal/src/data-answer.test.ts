import { randomBytes } from "node:crypto";
import { collectBytes } from "@chorus/channel-kit";
import { describe, expect, it } from "vitest";
import { readDataAnswer } from "./data-answer.js";

/** A body that hands out `text` in pieces of `size` characters, counting what was pulled. */
function body(text: string, size: number) {
  const bytes = new TextEncoder().encode(text);
  const pulled = { bytes: 0, cancelled: false };
  let at = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.byteLength) return controller.close();
        const piece = bytes.subarray(at, at + size);
        at += piece.byteLength;
        pulled.bytes += piece.byteLength;
        controller.enqueue(piece);
      },
      cancel() {
        pulled.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled };
}

const dataOf = async (text: string, size = 7) => {
  const read = await readDataAnswer(body(text, size).stream, "a test file");
  if (!("data" in read)) throw new Error(`no data: ${JSON.stringify(read.answer)}`);
  return collectBytes(read.data, 10_000_000, "test");
};

describe("readDataAnswer: signal-cli's getAttachment answer, decoded as it arrives", () => {
  it("decodes result.data split anywhere, in signal-cli's order and in any other", async () => {
    const file = randomBytes(1_000);
    const data = file.toString("base64");
    for (const size of [1, 3, 5, 64, 4096]) {
      expect(Buffer.from(await dataOf(`{"jsonrpc":"2.0","result":{"data":"${data}"},"id":1}`, size))).toEqual(file);
    }
    const reordered = `{ "id" : "x,}{\\"data\\":\\"no\\"", "result" : { "more": [1, {"data": "not this"}], "data" : "${data}" }, "jsonrpc" : "2.0" }`;
    expect(Buffer.from(await dataOf(reordered))).toEqual(file);
  });

  it("every length: padding of one, two or no characters", async () => {
    for (const length of [0, 1, 2, 3, 4, 5]) {
      const file = randomBytes(length);
      const text = `{"jsonrpc":"2.0","result":{"data":"${file.toString("base64")}"},"id":2}`;
      expect(Buffer.from(await dataOf(text, 2))).toEqual(file);
    }
  });

  it("resolves before the body is read, and reads it only as fast as the bytes are consumed", async () => {
    const data = randomBytes(300_000).toString("base64");
    const { stream, pulled } = body(`{"jsonrpc":"2.0","result":{"data":"${data}"},"id":1}`, 1024);
    const read = await readDataAnswer(stream, "a large file");
    expect("data" in read).toBe(true);
    expect(pulled.bytes).toBeLessThanOrEqual(1024);
    const reader = (read as { data: ReadableStream<Uint8Array> }).data.getReader();
    await reader.read();
    await reader.cancel();
    expect(pulled.bytes).toBeLessThan(5 * 1024);
    expect(pulled.cancelled).toBe(true);
  });

  it("a connection that breaks mid-file fails the stream with a retryable E_PLATFORM", async () => {
    let sent = false;
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new TypeError("terminated"));
        sent = true;
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","result":{"data":"AAAA'));
      },
    });
    const read = await readDataAnswer(broken, "a file");
    await expect(collectBytes((read as { data: ReadableStream<Uint8Array> }).data, 1_000, "x")).rejects.toMatchObject({
      code: "E_PLATFORM",
      retryable: true,
      message: "the download of a file broke off: terminated",
    });
  });

  it("an answer without result.data is read whole and handed back: signal-cli's error", async () => {
    const error = {
      jsonrpc: "2.0",
      error: { code: -1, message: 'Could not find attachment with ID: "x"', data: null },
      id: 4,
    };
    expect(await readDataAnswer(body(JSON.stringify(error), 5).stream, "x")).toEqual({ answer: error });
  });

  it("what is not such an answer fails with E_PLATFORM: not JSON, not base64, cut short", async () => {
    await expect(readDataAnswer(body("<html>proxy error</html>", 8).stream, "x")).rejects.toMatchObject({
      code: "E_PLATFORM",
      message: "signal-cli sent an unreadable answer for x (not JSON)",
    });
    await expect(dataOf('{"jsonrpc":"2.0","result":{"data":"AAAA$$$$"},"id":1}')).rejects.toMatchObject({
      message: expect.stringContaining("not base64"),
    });
    await expect(dataOf('{"jsonrpc":"2.0","result":{"data":"AA==AAAA"},"id":1}')).rejects.toMatchObject({
      message: expect.stringContaining("not base64"),
    });
    await expect(dataOf('{"jsonrpc":"2.0","result":{"data":"AAAA')).rejects.toMatchObject({
      message: expect.stringContaining("cut short"),
    });
    await expect(dataOf('{"jsonrpc":"2.0","result":{"data":"AAAA"},"id":')).rejects.toMatchObject({
      message: expect.stringContaining("cut short"),
    });
  });
});
