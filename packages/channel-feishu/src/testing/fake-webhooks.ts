import { createCipheriv, createHash, randomBytes } from "node:crypto";

/** How one delivery is posted; a forger's or a broken sender's changes for the tests. */
export interface WebhookPostOptions {
  /** Sign (and encrypt) with this Encrypt Key instead of the app's (a forger). */
  encryptKey?: string;
  /** Leave the signature headers out. */
  unsigned?: boolean;
  /** Post here instead of the configured request URL. */
  to?: string;
}

/** One delivery attempt as it went out, with the status the bot answered (0: no answer). */
export interface PostedWebhook {
  body: string;
  status: number;
  /** What the bot answered (the URL check's challenge). */
  answer: string;
  /** 0 for the first attempt of a delivery, then Feishu's retry number. */
  retry: number;
}

/** When Feishu pushes again an event the app did not acknowledge, and how long it waits for that. */
export interface FeishuRedelivery {
  /** The wait before each retry after a failed attempt; Feishu gives up after the last. */
  retryDelaysMs: readonly number[];
  /** An answer (webhook) or response frame (long connection) not there after this long is a failed attempt. */
  answerWithinMs: number;
}

/**
 * Feishu's own rules ("接收事件": 推送周期和频次; the long connection: "需要在 3 秒内处理完成且不抛出异常，
 * 否则会触发超时重推机制"): the app must answer HTTP 200 within 3 s; otherwise Feishu counts the push
 * as failed and pushes the same event (same `event_id`) again after 15 s, 5 min, 1 h and 6 h, at
 * most 4 retries.
 */
export const FEISHU_REDELIVERY: FeishuRedelivery = {
  retryDelaysMs: [15_000, 5 * 60_000, 60 * 60_000, 6 * 60 * 60_000],
  answerWithinMs: 3_000,
};

/** AES-256-CBC with the SHA-256 of the Encrypt Key, a random IV in front, base64: Feishu's `encrypt`. */
export function encryptEvent(encryptKey: string, plain: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv("aes-256-cbc", createHash("sha256").update(encryptKey).digest(), iv);
  return Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final()]).toString("base64");
}

/**
 * Feishu's webhook deliveries ("request URL" mode): one JSON POST per event, one at a time and in
 * order, pushed again (encrypted and signed anew) while not answered 200 in time. With an Encrypt
 * Key the body is `{"encrypt":"…"}` and `X-Lark-Signature` is the SHA-256 of timestamp + nonce +
 * key + body; the Verification Token travels inside (`header.token`).
 */
export class FakeFeishuWebhooks {
  /** The request URL configured in the developer console. */
  url: string | undefined;
  /** Every attempt, retries included, oldest first. */
  readonly posted: PostedWebhook[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #last: string | undefined;
  readonly #retries = new Set<NodeJS.Timeout>();
  #closed = false;

  constructor(
    private readonly encryptKey: string | undefined,
    private readonly redelivery: FeishuRedelivery = FEISHU_REDELIVERY,
  ) {}

  /** Delivers an event as Feishu does (retried while not answered 200); resolves with the bot's answer to the first attempt. */
  deliver(event: unknown): Promise<number> {
    this.#last = JSON.stringify(event);
    return this.#attempt(this.#last, 0);
  }

  /** Delivers the last event again by hand, byte for byte (same `event_id`), as a retry of Feishu's. */
  redeliverLast(): Promise<number> {
    if (this.#last === undefined) throw new Error("fake Feishu: nothing delivered yet");
    return this.post(this.#last).then((p) => p.status);
  }

  /** Posts `plain` once (encrypted and signed as configured), after every delivery before it: a forger's, or a test's own. */
  post(plain: string, options: WebhookPostOptions = {}): Promise<PostedWebhook> {
    return this.#enqueue(() => this.#send(plain, options, 0));
  }

  /** Resolves once every attempt so far was answered (retries still to come are not waited for). */
  async settled(): Promise<void> {
    await this.#queue;
  }

  /** Feishu stops pushing: retries still to come are dropped. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#retries) clearTimeout(timer);
    this.#retries.clear();
    await this.settled();
  }

  /** One attempt of Feishu's delivery; a failed one is pushed again after the next wait. */
  #attempt(plain: string, retry: number): Promise<number> {
    return this.#enqueue(async () => {
      const posted = await this.#send(plain, {}, retry);
      const wait = this.redelivery.retryDelaysMs[retry];
      if (posted.status !== 200 && wait !== undefined && this.url !== undefined && !this.#closed) {
        const timer = setTimeout(() => {
          this.#retries.delete(timer);
          if (!this.#closed) void this.#attempt(plain, retry + 1);
        }, wait);
        timer.unref();
        this.#retries.add(timer);
      }
      return posted.status;
    });
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const sent = this.#queue.then(task);
    this.#queue = sent.catch(() => undefined);
    return sent;
  }

  async #send(plain: string, options: WebhookPostOptions, retry: number): Promise<PostedWebhook> {
    const to = options.to ?? this.url;
    const key = options.encryptKey ?? this.encryptKey;
    const body = key === undefined ? plain : JSON.stringify({ encrypt: encryptEvent(key, plain) });
    let result: PostedWebhook = { body, status: 0, answer: "", retry };
    if (to !== undefined) {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const nonce = randomBytes(8).toString("hex");
      const signed: Record<string, string> =
        key !== undefined && !options.unsigned
          ? {
              "x-lark-request-timestamp": timestamp,
              "x-lark-request-nonce": nonce,
              "x-lark-signature": createHash("sha256")
                .update(timestamp + nonce + key + body)
                .digest("hex"),
            }
          : {};
      const headers = { "content-type": "application/json; charset=utf-8", ...signed };
      // A bot that is down, or slower than Feishu waits, answers nothing: a failed attempt (status 0).
      result = await fetch(to, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(this.redelivery.answerWithinMs),
      }).then(
        async (response) => ({ body, status: response.status, answer: await response.text(), retry }),
        () => ({ body, status: 0, answer: "", retry }),
      );
    }
    this.posted.push(result);
    return result;
  }
}
