import { abortableDelay, type Reconnect } from "@chorus/channel-kit";
import type { Logger } from "@chorus/core";
import { createParser } from "eventsource-parser";

export const EVENTS_PATH = "/api/v1/events";

export interface EventStreamOptions {
  /** `…/api/v1/events?account=…`. */
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /** How long connecting may take before the attempt counts as failed. */
  readonly connectTimeoutMs: number;
  /** How long the open stream may stay silent (no event, no keep-alive) before it counts as dead. */
  readonly idleTimeoutMs: number;
  readonly reconnect: Reconnect;
  /** Stopping the channel ends the stream for good. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** The `data` of one `receive` event. */
  onReceive(data: string): void;
  /** Told when the stream comes up, or goes down with the reason. */
  onState(connected: boolean, problem?: string): void;
}

/**
 * signal-cli's Server-Sent Events (`event: receive`, `data: {…}`, `:` keep-alives every 15 s),
 * read from fetch's body through `eventsource-parser`, reconnecting with backoff whenever the
 * daemon is down, restarts, answers something that is not an event stream, or goes silent.
 */
export class EventStream {
  #running: Promise<void> | undefined;
  #firstOutcome: Promise<void>;
  #settleFirst: () => void = () => undefined;

  constructor(private readonly options: EventStreamOptions) {
    this.#firstOutcome = new Promise((resolve) => {
      this.#settleFirst = resolve;
    });
  }

  /** Starts reading; resolves once the first connection is up or has failed (the loop goes on either way). */
  start(): Promise<void> {
    this.#running ??= this.#loop();
    return this.#firstOutcome;
  }

  /** Resolves once the loop has ended (after the channel's signal aborted). */
  async stopped(): Promise<void> {
    await this.#running;
  }

  async #loop(): Promise<void> {
    const { signal, reconnect, logger } = this.options;
    while (!signal.aborted) {
      let problem: string;
      try {
        await this.#readOnce();
        problem = "signal-cli closed the event stream";
      } catch (error) {
        problem = (error as Error).message;
      }
      this.#settleFirst();
      if (signal.aborted) break;
      const wait = reconnect.failed(problem);
      this.options.onState(false, problem);
      logger.debug({ waitMs: wait, failures: reconnect.failures }, `signal: event stream down (${problem})`);
      await abortableDelay(wait, signal);
    }
    this.#settleFirst();
  }

  /** One connection: resolves when the daemon ends it, rejects with the reason it failed or died. */
  async #readOnce(): Promise<void> {
    const { url, headers, connectTimeoutMs, idleTimeoutMs, signal } = this.options;
    const connection = new AbortController();
    const abort = () => connection.abort();
    signal.addEventListener("abort", abort, { once: true });
    let why = `no answer within ${connectTimeoutMs} ms`;
    let timer = setTimeout(() => connection.abort(), connectTimeoutMs);
    const silence = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        why = `the event stream was silent for ${idleTimeoutMs} ms`;
        connection.abort();
      }, idleTimeoutMs);
    };
    try {
      const response = await fetch(url, {
        headers: { accept: "text/event-stream", ...headers },
        signal: connection.signal,
      }).catch((error: unknown) => {
        throw new Error(`signal-cli unreachable at ${url.origin}: ${reasonOf(error, why)}`);
      });
      const type = response.headers.get("content-type") ?? "";
      if (response.status !== 200 || !type.startsWith("text/event-stream") || !response.body) {
        await response.body?.cancel().catch(() => undefined);
        throw new Error(refusalOf(response.status, type, url));
      }
      this.options.reconnect.succeeded();
      this.options.onState(true);
      this.#settleFirst();
      silence();
      const parser = createParser({
        onEvent: (event) => {
          if (event.event === "receive") this.options.onReceive(event.data);
        },
      });
      const decoder = new TextDecoder();
      try {
        for await (const chunk of response.body) {
          silence();
          parser.feed(decoder.decode(chunk, { stream: true }));
        }
      } catch (error) {
        if (signal.aborted) return;
        throw new Error(`the event stream broke: ${reasonOf(error, why)}`);
      }
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", abort);
    }
  }
}

function refusalOf(status: number, type: string, url: URL): string {
  if (status === 400) return `signal-cli does not know account ${url.searchParams.get("account")} (HTTP 400)`;
  if (status !== 200) return `signal-cli refused the event stream (HTTP ${status})`;
  return `signal-cli answered the event stream with ${type || "no content type"}, not text/event-stream`;
}

/** The useful part of a fetch failure: undici hides the reason in `cause`. */
function reasonOf(error: unknown, aborted: string): string {
  if ((error as Error)?.name === "AbortError") return aborted;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === "UND_ERR_SOCKET") return "the daemon closed the connection";
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}
