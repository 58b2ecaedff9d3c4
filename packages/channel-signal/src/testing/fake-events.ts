import type { ServerResponse } from "node:http";

/** One open `GET /api/v1/events` stream. */
interface Subscriber {
  readonly res: ServerResponse;
  readonly keepAlive: NodeJS.Timeout | undefined;
  silent: boolean;
}

/**
 * The daemon's Server-Sent Events, as signal-cli writes them (`event:receive`, `data:{…}`, and a
 * `:` keep-alive every `keepAliveMs`). Like `signal-cli daemon --receive-mode on-connection`,
 * nothing is received while no client listens: Signal keeps those messages, and they arrive
 * when a client connects again.
 */
export class FakeEventHub {
  readonly #subscribers = new Set<Subscriber>();
  readonly #waiting: string[] = [];
  /** Every `data` line written to a stream, oldest first. */
  readonly written: string[] = [];
  /** How many streams were ever opened. */
  connections = 0;

  constructor(private readonly keepAliveMs: number) {}

  /** Open streams right now. */
  get open(): number {
    return this.#subscribers.size;
  }

  /** Takes an accepted `/api/v1/events` response: flushes what waited, then streams. */
  attach(res: ServerResponse): void {
    const keepAlive =
      this.keepAliveMs > 0
        ? setInterval(() => {
            if (!subscriber.silent) res.write(":\n");
          }, this.keepAliveMs)
        : undefined;
    keepAlive?.unref();
    const subscriber: Subscriber = { res, keepAlive, silent: false };
    this.#subscribers.add(subscriber);
    this.connections += 1;
    const forget = () => {
      clearInterval(keepAlive);
      this.#subscribers.delete(subscriber);
    };
    res.once("close", forget);
    for (const data of this.#waiting.splice(0)) this.#write(subscriber, data);
  }

  /** Sends one `receive` event (a JSON string or any raw `data`), or keeps it until a client connects. */
  send(data: string): void {
    const listening = [...this.#subscribers].filter((s) => !s.silent && !s.res.destroyed);
    if (listening.length === 0) {
      this.#waiting.push(data);
      return;
    }
    for (const subscriber of listening) this.#write(subscriber, data);
  }

  /** Ends every open stream, as a daemon that stops does. */
  dropAll(): void {
    for (const subscriber of this.#subscribers) {
      clearInterval(subscriber.keepAlive);
      subscriber.res.destroy();
    }
    this.#subscribers.clear();
  }

  /** Open streams go quiet (no events, no keep-alives), as a hung daemon's do; new streams are fine. */
  silenceAll(): void {
    for (const subscriber of this.#subscribers) subscriber.silent = true;
  }

  #write(subscriber: Subscriber, data: string): void {
    this.written.push(data);
    subscriber.res.write(`event:receive\ndata:${data}\n\n`);
  }
}
