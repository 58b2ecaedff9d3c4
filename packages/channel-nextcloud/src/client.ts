import {
  abortableDelay,
  ChorusError,
  type ErrorCode,
  parseRetryAfter,
  RateLimitedError,
  retryDelay,
} from "@chorus/core";
import type { NextcloudConfig } from "./config.js";
import { newRandom, sign } from "./signing.js";
import type { OcsEnvelope } from "./wire.js";

/** Where every bot endpoint lives, below the server's base URL. */
export const BOT_API_PATH = "/ocs/v2.php/apps/spreed/api/v1/bot";

/** A refusal from Talk, keeping its HTTP status so callers can tell cases apart. */
export class TalkApiError extends ChorusError {
  override readonly name = "TalkApiError";

  constructor(
    readonly status: number,
    readonly operation: string,
    message: string,
  ) {
    super(codeFor(status), message, {
      retryable: status >= 500,
      details: { status },
      ...(status === 401 ? { hint: HINT_401 } : status === 413 ? { hint: "Send a shorter message." } : {}),
    });
  }
}

const HINT_401 =
  "Check channels.nextcloud.secret (the secret of occ talk:bot:install) and that the bot is enabled in this " +
  "conversation (occ talk:bot:setup <bot-id> <token>, or the conversation's bot settings) with the response feature.";

/** One signed bot call: what is signed (message text or reaction) and the JSON body. */
export interface BotCall {
  method: "POST" | "DELETE";
  /** Path below `/ocs/v2.php/apps/spreed/api/v1/bot`, e.g. `/<token>/message`. */
  path: string;
  /** The string Talk checks the signature over: the message text, or the reaction. */
  signed: string;
  body: Record<string, unknown>;
  /** What the call does, for error messages (`send a message to abc123`). */
  operation: string;
}

/**
 * A typed client over `fetch` for Talk's bot API: signs each request, unwraps the OCS envelope,
 * retries 5xx/network errors and short rate limits, and turns every failure into a `ChorusError`.
 */
export class TalkClient {
  constructor(
    private readonly config: NextcloudConfig,
    /** The instance's lifetime: stopping the channel aborts requests and retry waits. */
    private readonly signal?: AbortSignal,
  ) {}

  /** Performs a signed bot call; resolves with the HTTP status (201/200) and the OCS data. */
  async call<T = unknown>(request: BotCall): Promise<{ status: number; data: T | undefined }> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#once<T>(request);
      } catch (error) {
        const wait = retryDelay(error, attempt, this.config);
        if (wait === undefined || this.signal?.aborted) throw error;
        await abortableDelay(wait, this.signal);
      }
    }
  }

  async #once<T>(request: BotCall): Promise<{ status: number; data: T | undefined }> {
    // A fresh random per attempt: Talk (and our own webhook) treat a reused random as a replay.
    const random = newRandom();
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json",
      "ocs-apirequest": "true",
      "x-nextcloud-talk-bot-random": random,
      "x-nextcloud-talk-bot-signature": sign(this.config.secret, random, request.signed),
    };
    const url = `${this.config.baseUrl.replace(/\/+$/u, "")}${BOT_API_PATH}${request.path}`;
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: request.method,
        headers,
        body: JSON.stringify(request.body),
        signal: this.signal ? AbortSignal.any([this.signal, timeout]) : timeout,
      });
      text = await response.text();
    } catch (error) {
      if (this.signal?.aborted) throw new ChorusError("E_DISABLED", "Nextcloud Talk is stopping", { cause: error });
      const reason = timeout.aborted ? `no answer within ${this.config.timeoutMs}ms` : (error as Error).message;
      throw new ChorusError("E_PLATFORM", `Nextcloud Talk unreachable (${request.operation}): ${reason}`, {
        retryable: true,
        cause: error,
      });
    }
    if (response.status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
      throw new RateLimitedError(
        `Nextcloud Talk rate limit (${request.operation}); Talk also throttles after repeated 401s`,
        retryAfterMs,
        { hint: `Wait ${Math.ceil(retryAfterMs / 1000)}s before trying again.` },
      );
    }
    const envelope = parseEnvelope<T>(text);
    if (response.status !== 200 && response.status !== 201) {
      const detail = envelope?.ocs.meta.message ? `: ${envelope.ocs.meta.message}` : "";
      throw new TalkApiError(
        response.status,
        request.operation,
        `Nextcloud Talk refused to ${request.operation} (HTTP ${response.status}${describe(response.status)})${detail}`,
      );
    }
    if (text !== "" && envelope === undefined) {
      // A 2xx we cannot read may still have done its work (a message sent): not retried.
      throw new ChorusError("E_PLATFORM", `Nextcloud Talk sent an unreadable answer (${request.operation})`, {
        retryable: false,
        details: { status: response.status, body: text.slice(0, 200) },
      });
    }
    return { status: response.status, data: envelope?.ocs.data ?? undefined };
  }
}

function codeFor(status: number): ErrorCode {
  if (status === 401 || status === 403) return "E_AUTH";
  if (status === 404) return "E_MESSAGE_NOT_FOUND";
  if (status === 400 || status === 413) return "E_INVALID_INPUT";
  return "E_PLATFORM";
}

function describe(status: number): string {
  if (status === 400)
    return ": bad request (empty text, an invalid replyTo or emoji, or the bot lacks the response feature)";
  if (status === 401) return ": the bot's signature was not accepted for this conversation";
  if (status === 404) return ": conversation or message not found";
  if (status === 413) return ": message too long";
  return "";
}

function parseEnvelope<T>(text: string): OcsEnvelope<T> | undefined {
  try {
    const value = JSON.parse(text) as Partial<OcsEnvelope<T>>;
    return typeof value?.ocs?.meta === "object" ? (value as OcsEnvelope<T>) : undefined;
  } catch {
    return undefined;
  }
}
