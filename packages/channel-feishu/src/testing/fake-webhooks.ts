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

/** One delivery as it went out, with the status the bot answered (0: no answer). */
export interface PostedWebhook {
  body: string;
  status: number;
  /** What the bot answered (the URL check's challenge). */
  answer: string;
}

/** Longest a delivery waits for the bot's answer (Feishu itself gives up after a few seconds). */
const DELIVERY_TIMEOUT_MS = 10_000;

/** AES-256-CBC with the SHA-256 of the Encrypt Key, a random IV in front, base64: Feishu's `encrypt`. */
export function encryptEvent(encryptKey: string, plain: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv("aes-256-cbc", createHash("sha256").update(encryptKey).digest(), iv);
  return Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final()]).toString("base64");
}

/**
 * Feishu's webhook deliveries ("request URL" mode): one JSON POST per event, one at a time and in
 * order. With an Encrypt Key the body is `{"encrypt":"…"}` and `X-Lark-Signature` is the SHA-256 of
 * timestamp + nonce + key + body; the Verification Token travels inside (`header.token`).
 */
export class FakeFeishuWebhooks {
  /** The request URL configured in the developer console. */
  url: string | undefined;
  readonly posted: PostedWebhook[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #last: string | undefined;

  constructor(private readonly encryptKey: string | undefined) {}

  /** Delivers an event; resolves with the bot's status. */
  deliver(event: unknown): Promise<number> {
    this.#last = JSON.stringify(event);
    return this.post(this.#last).then((p) => p.status);
  }

  /** Delivers the last event again, byte for byte (same `event_id`), as Feishu retries. */
  redeliverLast(): Promise<number> {
    if (this.#last === undefined) throw new Error("fake Feishu: nothing delivered yet");
    return this.post(this.#last).then((p) => p.status);
  }

  /** Posts `plain` (encrypted and signed as configured), after every delivery before it. */
  post(plain: string, options: WebhookPostOptions = {}): Promise<PostedWebhook> {
    const sent = this.#queue.then(() => this.#send(plain, options));
    this.#queue = sent.catch(() => undefined);
    return sent;
  }

  /** Resolves once every delivery so far was answered. */
  async settled(): Promise<void> {
    await this.#queue;
  }

  async #send(plain: string, options: WebhookPostOptions): Promise<PostedWebhook> {
    const to = options.to ?? this.url;
    const key = options.encryptKey ?? this.encryptKey;
    const body = key === undefined ? plain : JSON.stringify({ encrypt: encryptEvent(key, plain) });
    let result: PostedWebhook = { body, status: 0, answer: "" };
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
      // A bot that is down answers nothing: Feishu notes it (status 0) and goes on.
      result = await fetch(to, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      }).then(
        async (response) => ({ body, status: response.status, answer: await response.text() }),
        () => ({ body, status: 0, answer: "" }),
      );
    }
    this.posted.push(result);
    return result;
  }
}
