import { describe, expect, it } from "vitest";
import { readSseEvents, sseEvent } from "./sse.js";

/** A body that arrives in exactly these chunks. */
function body(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>) {
  const events = [];
  for await (const event of readSseEvents(stream)) events.push(event);
  return events;
}

describe("Server-Sent Events", () => {
  it("reads back what sseEvent writes, across any chunking", async () => {
    const text = sseEvent({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }) + sseEvent({ n: "a\nb" });
    for (let cut = 0; cut < text.length; cut += 7) {
      expect(await all(body(text.slice(0, cut), text.slice(cut)))).toEqual([
        { event: "message", data: '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}' },
        { event: "message", data: '{"n":"a\\nb"}' },
      ]);
    }
  });

  it("joins data lines, reads CRLF and CR line ends, keeps the id, skips comments and empty events", async () => {
    expect(
      await all(
        body(": keep-alive\r\n\r\n", "id: 7\r\ndata: one\r", "\ndata:two\r\rretry: 10\n\nevent: other\ndata\n\n"),
      ),
    ).toEqual([
      { event: "message", data: "one\ntwo", id: "7" },
      { event: "other", data: "", id: "7" },
    ]);
  });
});
