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

/** One delivery as it went out, with the status the bot answered (0: no answer). */
export interface PostedDelivery {
  body: string;
  status: number;
}

/** Longest a delivery waits for the bot's answer, so a hung handler cannot hold the fake's queue. */
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * The fake Acme's webhook deliveries, as Acme makes them: signed (`X-Acme-Signature: sha256=` HMAC
 * of `<timestamp>.<body>`), one at a time and in order, to the URL the bot registered.
 */
export class FakeAcmeWebhooks {
  /** Where Acme delivers; set by the bot's `PUT /v1/webhook`. */
  url: string | undefined;
  /** Every delivery made, oldest first. */
  readonly posted: PostedDelivery[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #nextId = 1;
  #last: string | undefined;

  constructor(private readonly secret: string) {}

  /** Delivers a new event; resolves with the bot's answer. */
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

  /** Posts `body` signed (by Acme, or by `options.secret`), after every delivery before it. */
  post(body: string, options: PostOptions = {}): Promise<number> {
    const sent = this.#queue.then(() => this.#send(body, options));
    this.#queue = sent;
    return sent;
  }

  /** Resolves once every delivery so far was answered. */
  async settled(): Promise<void> {
    await this.#queue;
  }

  async #send(body: string, options: PostOptions): Promise<number> {
    const to = options.to ?? this.url;
    let status = 0;
    if (to !== undefined) {
      const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
      const signature = `sha256=${hmacSha256Hex(options.secret ?? this.secret, `${timestamp}.${body}`)}`;
      const headers = {
        "content-type": "application/json",
        "x-acme-timestamp": timestamp,
        "x-acme-signature": signature,
      };
      const signal = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
      // A bot that is down answers nothing: Acme notes it (status 0) and goes on with the next one.
      status = await fetch(to, { method: "POST", headers, body, signal }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 0,
      );
    }
    this.posted.push({ body, status });
    return status;
  }
}
