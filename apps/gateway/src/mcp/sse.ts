/** Server-Sent Events as MCP's Streamable HTTP uses them: one JSON-RPC message per `message` event. */

export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

/** One event carrying `message` (JSON has no raw line break, so one `data` line). */
export function sseEvent(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** A comment line that keeps idle proxies from closing the stream. */
export const SSE_KEEP_ALIVE = ": keep-alive\n\n";

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** The events of an SSE body, as they arrive (comments and `retry` skipped). */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let event = "";
  let id: string | undefined;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.search(/\r\n|\r|\n/); end >= 0; end = buffer.search(/\r\n|\r|\n/)) {
      const line = buffer.slice(0, end);
      // A lone \r at the end of the buffer may be the first half of \r\n: wait for the next chunk.
      if (buffer[end] === "\r" && end === buffer.length - 1) break;
      buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
      if (line === "") {
        if (data.length > 0) yield { event: event || "message", data: data.join("\n"), ...(id ? { id } : {}) };
        data = [];
        event = "";
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + (line[colon + 1] === " " ? 2 : 1));
      if (field === "data") data.push(value);
      else if (field === "event") event = value;
      else if (field === "id") id = value;
    }
  }
}
