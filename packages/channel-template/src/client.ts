import { randomUUID } from "node:crypto";
import {
  abortableDelay,
  ChorusError,
  type ErrorCode,
  parseRetryAfter,
  RateLimitedError,
  retryDelay,
} from "@chorus/core";
import type { AcmeConfig } from "./config.js";
import type { AcmeErrorBody } from "./wire.js";

/** A refusal from Acme, keeping its HTTP status and wire code so callers can tell cases apart. */
export class AcmeApiError extends ChorusError {
  override readonly name = "AcmeApiError";

  constructor(
    readonly status: number,
    readonly wireCode: string,
    message: string,
  ) {
    super(codeFor(status, wireCode), message, {
      // Only a server-side failure may go away on its own; a 4xx will be refused again.
      retryable: status >= 500,
      details: { status, error: wireCode },
      ...(status === 401 || status === 403 ? { hint: "Check channels.acme.token (Acme console → Bots)." } : {}),
    });
  }
}

export interface RequestOptions {
  body?: unknown;
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * A typed client over `fetch` for Acme's REST API. Retries and error mapping live here, in one
 * place, so the rest of the plugin calls `request()` and only ever sees `ChorusError`s.
 */
export class AcmeClient {
  constructor(
    private readonly config: AcmeConfig,
    /** The instance's lifetime: stopping the channel aborts requests and retry waits. */
    private readonly signal?: AbortSignal,
  ) {}

  /** Calls the API, retrying 5xx, network errors and short rate limits at most `retries` times. */
  async request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
    // POST is not idempotent: the same key on every retry lets Acme drop a duplicate of a
    // message whose first attempt did arrive but whose answer was lost.
    const idempotencyKey = method === "POST" ? randomUUID() : undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#once<T>(method, path, options.body, idempotencyKey);
      } catch (error) {
        const wait = retryDelay(error, attempt, this.config);
        if (wait === undefined || this.signal?.aborted) throw error;
        await abortableDelay(wait, this.signal);
      }
    }
  }

  async #once<T>(method: Method, path: string, body: unknown, idempotencyKey: string | undefined): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.config.token}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(new URL(path, this.config.baseUrl), {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: this.signal ? AbortSignal.any([this.signal, timeout]) : timeout,
      });
      text = await response.text();
    } catch (error) {
      if (this.signal?.aborted) throw new ChorusError("E_DISABLED", "Acme Chat is stopping", { cause: error });
      const reason = timeout.aborted ? `no answer within ${this.config.timeoutMs}ms` : (error as Error).message;
      throw new ChorusError("E_PLATFORM", `Acme Chat unreachable (${method} ${path}): ${reason}`, {
        retryable: true,
        cause: error,
      });
    }
    if (response.status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
      throw new RateLimitedError(`Acme Chat rate limit on ${method} ${path}`, retryAfterMs, {
        hint: `Wait ${Math.ceil(retryAfterMs / 1000)}s before trying again.`,
      });
    }
    const parsed = parseJson(text);
    if (!response.ok) {
      const wire = (parsed.ok ? parsed.value : undefined) as Partial<AcmeErrorBody> | undefined;
      const code = typeof wire?.error === "string" ? wire.error : "unknown";
      const detail = typeof wire?.message === "string" ? `: ${wire.message}` : "";
      throw new AcmeApiError(
        response.status,
        code,
        `Acme Chat refused ${method} ${path} (HTTP ${response.status} ${code})${detail}`,
      );
    }
    if (!parsed.ok) {
      // A 2xx we cannot read may still have done its work (a message sent): not retried.
      throw new ChorusError("E_PLATFORM", `Acme Chat sent an unreadable answer to ${method} ${path}`, {
        retryable: false,
        details: { status: response.status, body: text.slice(0, 200) },
      });
    }
    return parsed.value as T;
  }
}

function codeFor(status: number, wireCode: string): ErrorCode {
  if (status === 401 || status === 403) return "E_AUTH";
  if (status === 404) return "E_MESSAGE_NOT_FOUND";
  if (wireCode === "unknown_emoji") return "E_UNSUPPORTED_EMOJI";
  if (status === 400 || status === 413 || status === 422) return "E_INVALID_INPUT";
  return "E_PLATFORM";
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
