import { hmacSha256Hex } from "@chorus/channel-kit";
import type { AcmeDelivery } from "../wire.js";

/** How one delivery is posted; a forger's or a replay's changes for the signature tests. */
export interface PostOptions {
  /** Sign with this secret instead of Acme's (a forger). */
  secret?: string;
  /** `X-Acme-Timestamp` in unix seconds; now by default. */
  timestamp?: number;
  /** Post here instead of the registered webhook. */
  to?: string;
}

/** One delivery attempt as it went out, with the status the bot answered (0: no answer). */
export interface PostedDelivery {
  body: string;
  status: number;
  /** 0 for the first attempt, then Acme's retry number (`X-Acme-Retry`). */
  retry: number;
}

/**
 * When Acme posts a delivery again that was not answered 2xx (a 5xx, a timeout, no connection):
 * after each of these waits, then it gives up. A 4xx is the bot refusing the request (a bad
 * signature), which the same bytes would not change: it is not retried.
 */
export const ACME_RETRY_DELAYS_MS: readonly number[] = [10_000, 60_000, 300_000];

/** Longest a delivery waits for the bot's answer, so a hung handler cannot hold the fake's queue. */
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * The fake Acme's webhook deliveries, as Acme makes them: signed (`X-Acme-Signature: sha256=` HMAC
 * of `<timestamp>.<body>`), one at a time and in order, to the URL the bot registered, and posted
 * again (same body and delivery id, a fresh signature, `X-Acme-Retry: <n>`) while not answered 2xx.
 */
export class FakeAcmeWebhooks {
  /** Where Acme delivers; set by the bot's `PUT /v1/webhook`. */
  url: string | undefined;
  /** Every delivery attempt made, oldest first. */
  readonly posted: PostedDelivery[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #nextId = 1;
  #last: string | undefined;
  readonly #retries = new Set<NodeJS.Timeout>();
  #closed = false;

  constructor(
    private readonly secret: string,
    private readonly retryDelaysMs: readonly number[] = ACME_RETRY_DELAYS_MS,
  ) {}

  /** Delivers a new event; resolves with the bot's answer to the first attempt. */
  deliver(type: string, data: unknown): Promise<number> {
    this.#last = JSON.stringify(this.envelope(type, data));
    return this.post(this.#last);
  }

  /** Delivers the last event again, with the same delivery id, as Acme does when an answer was lost. */
  redeliverLast(): Promise<number> {
    if (this.#last === undefined) throw new Error("fake Acme: nothing delivered yet");
    return this.post(this.#last);
  }

  /** A delivery in Acme's envelope, with a fresh delivery id. */
  envelope(type: string, data: unknown): AcmeDelivery {
    return { id: `dlv_${this.#nextId++}`, type, created_at: new Date().toISOString(), data };
  }

  /** Posts `body` signed (by Acme, or by `options.secret`), after every delivery before it; retried while not answered 2xx. */
  post(body: string, options: PostOptions = {}, retry = 0): Promise<number> {
    const sent = this.#queue.then(async () => {
      const status = await this.#send(body, options, retry);
      const failed = status === 0 || status >= 500;
      const wait = this.retryDelaysMs[retry];
      if (failed && wait !== undefined && (options.to ?? this.url) !== undefined)
        this.#retry(wait, body, options, retry + 1);
      return status;
    });
    this.#queue = sent;
    return sent;
  }

  /** Retries waiting for their time. */
  get retrying(): number {
    return this.#retries.size;
  }

  /** Resolves once every delivery attempt so far was answered (retries still to come are not waited for). */
  async settled(): Promise<void> {
    await this.#queue;
  }

  /** Acme stops delivering: retries still to come are dropped. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#retries) clearTimeout(timer);
    this.#retries.clear();
    await this.settled();
  }

  #retry(waitMs: number, body: string, options: PostOptions, retry: number): void {
    if (this.#closed) return;
    const timer = setTimeout(() => {
      this.#retries.delete(timer);
      void this.post(body, options, retry);
    }, waitMs);
    timer.unref();
    this.#retries.add(timer);
  }

  async #send(body: string, options: PostOptions, retry: number): Promise<number> {
    const to = options.to ?? this.url;
    let status = 0;
    if (to !== undefined) {
      // Each attempt is signed at its own time: a retry hours later still passes the freshness check.
      const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
      const signature = `sha256=${hmacSha256Hex(options.secret ?? this.secret, `${timestamp}.${body}`)}`;
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "x-acme-timestamp": timestamp,
        "x-acme-signature": signature,
        ...(retry > 0 && { "x-acme-retry": String(retry) }),
      };
      const signal = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
      // A bot that is down answers nothing: Acme notes it (status 0) and tries again later.
      status = await fetch(to, { method: "POST", headers, body, signal }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 0,
      );
    }
    this.posted.push({ body, status, retry });
    return status;
  }
}
