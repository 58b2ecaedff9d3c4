import { createParser, type EventSourceMessage } from "eventsource-parser";

/** One open `GET /v1/events` stream, read with a real SSE parser over fetch. */
export interface SseStream {
  status: number;
  headers: Headers;
  /** Every event so far: its SSE id (if any) and its JSON data. */
  events: { id?: string; data: Record<string, unknown> }[];
  /** The SSE id of the last event that had one (what a client sends as `Last-Event-ID`). */
  lastEventId(): string | undefined;
  /** Resolves when the server ended the stream (or it was closed). */
  ended: Promise<void>;
  close(): void;
}

/** Opens the gateway's event stream; `lastEventId` resumes; `query` is added to the URL (`operator=1`). */
export async function openEvents(url: string, token: string, lastEventId?: string, query?: string): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(`${url}/v1/events${query ? `?${query}` : ""}`, {
    headers: {
      authorization: `Bearer ${token}`,
      accept: "text/event-stream",
      ...(lastEventId !== undefined ? { "last-event-id": lastEventId } : {}),
    },
    signal: abort.signal,
  });
  const events: SseStream["events"] = [];
  let last: string | undefined = lastEventId;
  const parser = createParser({
    onEvent: (event: EventSourceMessage) => {
      if (event.id !== undefined) last = event.id;
      events.push({ ...(event.id !== undefined ? { id: event.id } : {}), data: JSON.parse(event.data) });
    },
  });
  const ended = (async () => {
    if (!response.ok || !response.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch {
      // Closed by the client, or the server went away.
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    events,
    lastEventId: () => last,
    ended,
    close: () => abort.abort(),
  };
}
