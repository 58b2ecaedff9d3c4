// A small outside agent for Chorus: it reads the gateway's event stream (GET /v1/events, Server-Sent
// Events) and answers through the HTTP API (POST /v1/tools/message). Swap `answer` for a call to
// your own model or agent framework; everything else is the whole protocol.
import { createParser } from "eventsource-parser";

/**
 * @typedef {{ id: string, type: "message", channel: string, account: string, conversation: { id: string, kind: "direct" | "group", threadId?: string },
 *   sender: { id: string, name?: string }, text: string, mentions: { bot: boolean, others: string[] }, messageId: string }} MessageEvent
 */

/** Echoes direct messages and group messages that mention the bot; stays silent elsewhere. */
export function echo(/** @type {MessageEvent} */ event) {
  if (event.conversation.kind === "group" && !event.mentions.bot) return undefined;
  return `echo: ${event.text}`;
}

/**
 * Runs until `signal` aborts: streams events from `url` (resuming after `lastEventId`, and after
 * every reconnect from the last event it saw), answers each message `answer` returns text for,
 * and reports what it did through `onEvent`.
 * @param {{ url: string, token: string, answer?: (event: MessageEvent) => string | undefined | Promise<string | undefined>,
 *   lastEventId?: string, signal?: AbortSignal, onEvent?: (event: Record<string, unknown>) => void }} options
 */
export async function runOutsideAgent(options) {
  const { url, token, answer = echo, signal, onEvent = () => {} } = options;
  let lastEventId = options.lastEventId;
  let delayMs = 500;
  while (!signal?.aborted) {
    try {
      const response = await fetch(`${url}/v1/events`, {
        headers: {
          authorization: `Bearer ${token}`,
          accept: "text/event-stream",
          ...(lastEventId !== undefined ? { "last-event-id": lastEventId } : {}),
        },
        signal,
      });
      if (response.status === 401) throw new Error("the gateway refused the token (401)");
      if (!response.ok || !response.body) throw new Error(`the gateway answered HTTP ${response.status}`);
      delayMs = 500;
      /** @type {Record<string, unknown>[]} */
      const pending = [];
      const parser = createParser({
        onEvent: (message) => {
          if (message.id !== undefined) lastEventId = message.id;
          pending.push(JSON.parse(message.data));
        },
      });
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        // One at a time, in order: each answer before the next event.
        while (pending.length > 0) await handle(/** @type {Record<string, unknown>} */ (pending.shift()));
      }
    } catch (error) {
      if (signal?.aborted) return;
      if (String(error).includes("401")) throw error;
      onEvent({ type: "disconnected", error: String(error) });
    }
    // The gateway went away (a restart): back off and resume from the last event id.
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    delayMs = Math.min(delayMs * 2, 10_000);
  }

  /** @param {Record<string, unknown>} event */
  async function handle(event) {
    onEvent(event);
    if (event.type !== "message") return;
    const message = /** @type {MessageEvent} */ (/** @type {unknown} */ (event));
    const text = await answer(message);
    if (text === undefined) return;
    const response = await fetch(`${url}/v1/tools/message`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        channel: message.channel,
        account: message.account,
        target: message.conversation.id,
        action: "send",
        text,
      }),
    });
    const result = await response.json();
    onEvent({ type: "answered", to: message.id, ok: result.ok, ...(result.ok ? {} : { error: result.error }) });
  }
}
