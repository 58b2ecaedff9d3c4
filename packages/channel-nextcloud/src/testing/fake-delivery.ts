import { randomInt } from "node:crypto";
import { sign } from "../signing.js";
import type { FakeBot } from "./fake-state.js";
import { phpJsonEncode } from "./php-json.js";

/** Talk's time limit for a bot's answer (`'timeout' => 5` in `sendAsyncRequest`). */
export const TALK_HOOK_TIMEOUT_MS = 5_000;

/** The characters of `ISecureRandom::generate(64)` by default: base64's, `+` and `/` included. */
const RANDOM_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** A random like the one Talk signs a delivery with: 64 characters that may hold `+` and `/`. */
export function talkRandom(): string {
  return Array.from({ length: 64 }, () => RANDOM_CHARS[randomInt(RANDOM_CHARS.length)]).join("");
}

/** Overrides for `deliver`, to send what a forger or a replay would. */
export interface DeliverOptions {
  /** Sign with this secret instead of the bot's. */
  secret?: string;
  /** Use this `X-Nextcloud-Talk-Random` (a replay reuses one). */
  random?: string | undefined;
  /** Send this signature verbatim. */
  signature?: string | undefined;
  /** Send this `X-Nextcloud-Talk-Backend` instead of the fake's URL with its trailing slash. */
  backend?: string;
}

/** One webhook the fake posted, with the exact bytes of its body. */
export interface Delivery {
  url: string;
  bot: FakeBot;
  body: string;
  headers: Record<string, string>;
  status: number;
  /** Signed with the bot's own secret, as Talk does (not a forgery made through `DeliverOptions`). */
  genuine: boolean;
}

/**
 * Posts webhooks as `BotService::sendAsyncRequest` does (nextcloud/spreed
 * `lib/Service/BotService.php`): once, with a 5 s timeout; an answer other than 200 or 202, or
 * none, raises the bot's error count and is never retried. Keeps each delivery.
 */
export class HookSender {
  readonly deliveries: Delivery[] = [];

  /** `backend` is the server URL Talk names in `X-Nextcloud-Talk-Backend`. */
  constructor(private readonly backend: () => string) {}

  /**
   * Encodes `body` with PHP's `json_encode` (a string is sent as it is), signs random + body with
   * the bot's secret, and posts it with Talk's headers; resolves with the bot's answer.
   */
  async deliver(url: string, bot: FakeBot, body: object | string, options: DeliverOptions = {}): Promise<Response> {
    const raw = typeof body === "string" ? body : phpJsonEncode(body);
    const random = options.random ?? talkRandom();
    const headers = {
      "content-type": "application/json",
      "x-nextcloud-talk-random": random,
      "x-nextcloud-talk-signature": options.signature ?? sign(options.secret ?? bot.secret, random, raw),
      // rtrim(overwrite.cli.url, '/') . '/'
      "x-nextcloud-talk-backend": options.backend ?? `${this.backend().replace(/\/+$/u, "")}/`,
      "ocs-apirequest": "true",
    };
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers,
        body: raw,
        signal: AbortSignal.timeout(TALK_HOOK_TIMEOUT_MS),
      });
    } catch (error) {
      bot.errorCount++;
      bot.lastErrorMessage = `${(error as Error).name}: ${(error as Error).message}`;
      throw error;
    }
    if (response.status !== 200 && response.status !== 202) {
      bot.errorCount++;
      bot.lastErrorMessage = `UnexpectedStatusCode: ${response.status}`;
    }
    const genuine = options.secret === undefined && options.signature === undefined;
    this.deliveries.push({ url, bot, body: raw, headers, status: response.status, genuine });
    return response;
  }

  /**
   * The last genuine delivery again, as Talk would send it. Talk itself never retries (one POST,
   * a 5 s timeout, a failure only counted against the bot); the same event reaches a bot twice
   * only when Talk fires it again, and every firing is signed with a fresh random. So: the same
   * body, a new random and signature, to `url` or where it went before.
   */
  redeliverLast(url?: string): Promise<Response> {
    const last = this.deliveries.findLast((d) => d.genuine);
    if (!last) throw new Error("fake Talk: nothing was delivered yet");
    return this.deliver(url ?? last.url, last.bot, last.body);
  }

  /** The last delivery posted again byte for byte, random and signature included: a captured request replayed. */
  replayLast(): Promise<Response> {
    const last = this.deliveries.at(-1);
    if (!last) throw new Error("fake Talk: nothing was delivered yet");
    const { "x-nextcloud-talk-random": random, "x-nextcloud-talk-signature": signature } = last.headers;
    return this.deliver(last.url, last.bot, last.body, { random, signature });
  }
}
