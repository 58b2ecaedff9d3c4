import { ChorusError, type ErrorCode, RateLimitedError } from "@chorus/core";
import type { Redactor } from "../redact/redactor.js";
import { parseRetryAfter } from "../retry/retry-after.js";
import { retrying } from "../retry/retrying.js";
import { anySignal } from "../signals/any-signal.js";
import { codeForStatus, PlatformHttpError, platformMessage } from "./errors.js";

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One platform call. */
export interface PlatformCall {
  method: HttpMethod;
  /** Path below the client's base URL (`/v1/messages`); encode ids in it with `encodeURIComponent`. */
  path: string;
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** A JSON body. */
  json?: unknown;
  /** A raw body, with its `contentType`. */
  body?: string | Uint8Array;
  contentType?: string;
  headers?: Readonly<Record<string, string>>;
  /** What the call does, for error messages (`send a message to abc`); `METHOD path` by default. */
  operation?: string;
  /**
   * Whether repeating the call is harmless. By default reads, PUT and DELETE are; POST and PATCH
   * are not (a lost answer may mean a message was sent), unless this says so (an idempotency key).
   */
  idempotent?: boolean;
  /** Overrides the client's retries (0 for a long poll that has its own loop). */
  retries?: number;
  /** Overrides the client's timeout (a long poll waits longer). */
  timeoutMs?: number;
  /** Aborts this call alone. */
  signal?: AbortSignal;
}

/** The request about to go out, for `prepare` to sign or authorise. */
export interface OutgoingRequest {
  readonly call: PlatformCall;
  readonly url: URL;
  readonly headers: Headers;
  readonly body: string | Uint8Array | undefined;
}

/** What the platform answered. */
export interface HttpAnswer {
  readonly call: PlatformCall;
  readonly operation: string;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON; undefined when empty or not JSON. */
  readonly json: unknown;
}

export interface HttpClientOptions {
  /** The platform's name in messages (`Nextcloud Talk`). */
  label: string;
  baseUrl: string;
  timeoutMs: number;
  retries: number;
  maxRetryAfterMs: number;
  /** The instance's lifetime: stopping the channel aborts requests and retry waits. */
  signal?: AbortSignal;
  /** Headers every request carries (`authorization`). */
  headers?: Readonly<Record<string, string>>;
  /** Runs before every attempt: signs it, adds a fresh nonce, puts a password in the query. */
  prepare?(request: OutgoingRequest): void | Promise<void>;
  /**
   * The error a refused answer means (non-2xx, or a 2xx whose envelope says no when `read`
   * throws it); undefined falls back to the status-based mapping.
   */
  refusal?(answer: HttpAnswer): ChorusError | undefined;
  /** The result of a 2xx answer (unwraps an envelope); may throw a `ChorusError`. Default: `answer.json`. */
  read?(answer: HttpAnswer): unknown;
  /** What to do about each code, for the default refusal (`{ E_AUTH: "Check channels.acme.token." }`). */
  hints?: Partial<Record<ErrorCode, string>>;
  /** Removes the account's secrets from every error the client throws. */
  redactor?: Redactor;
  /** Told after each attempt whether the platform answered at all (for a degraded status). */
  onReachability?(reachable: boolean, error?: ChorusError): void;
}

const IDEMPOTENT_METHODS = new Set<HttpMethod>(["GET", "HEAD", "PUT", "DELETE"]);

/**
 * A JSON client over `fetch` for one platform account: base URL, timeouts, bounded retries with
 * backoff, 429 / `Retry-After` → `E_RATE_LIMITED`, 5xx and network failures → retryable
 * `E_PLATFORM`, 401/403 → `E_AUTH`, and secrets redacted from every error. A channel supplies only
 * what is its platform's own: signing (`prepare`), its refusal codes (`refusal`) and its envelope (`read`).
 */
export class HttpClient {
  constructor(readonly options: HttpClientOptions) {}

  /**
   * Calls the platform and resolves with the result `read` makes of the 2xx answer; an error
   * `read` throws (an envelope that says no) is retried like any other.
   */
  request<T = unknown>(call: PlatformCall): Promise<T> {
    return this.#withRetries(call, async () => this.#read(await this.#once(call)) as T);
  }

  /** Calls the platform and resolves with the whole 2xx answer (status, headers, body), unread. */
  answer(call: PlatformCall): Promise<HttpAnswer> {
    return this.#withRetries(call, () => this.#once(call));
  }

  /** The URL a call goes to (without what `prepare` adds). */
  url(call: Pick<PlatformCall, "path" | "query">): URL {
    const base = this.options.baseUrl.replace(/\/+$/u, "");
    const path = call.path.startsWith("/") ? call.path : `/${call.path}`;
    const url = new URL(`${base}${path}`);
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  async #once(call: PlatformCall): Promise<HttpAnswer> {
    const operation = call.operation ?? `${call.method} ${call.path}`;
    const headers = new Headers({ accept: "application/json", ...this.options.headers, ...call.headers });
    let body: string | Uint8Array | undefined = call.body;
    if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      headers.set("content-type", "application/json");
    } else if (body !== undefined && call.contentType) {
      headers.set("content-type", call.contentType);
    }
    const request: OutgoingRequest = { call, url: this.url(call), headers, body };
    await this.options.prepare?.(request);
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const outer = this.#signal(call);
    let response: Response;
    let text: string;
    try {
      response = await fetch(request.url, {
        method: call.method,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        signal: outer ? anySignal([outer, timeout]) : timeout,
      });
      text = await response.text();
    } catch (error) {
      if (outer?.aborted) throw new ChorusError("E_DISABLED", `${this.options.label} is stopping`, { cause: error });
      const reason = timeout.aborted ? `no answer within ${timeoutMs} ms` : networkReason(error);
      const failure = new ChorusError("E_PLATFORM", `${this.options.label} unreachable (${operation}): ${reason}`, {
        retryable: true,
        details: { network: true },
        cause: error,
        hint: `Check that ${this.options.label} is reachable at ${this.options.baseUrl}.`,
      });
      this.options.onReachability?.(false, failure);
      throw failure;
    }
    this.options.onReachability?.(true);
    const answer: HttpAnswer = {
      call,
      operation,
      status: response.status,
      headers: response.headers,
      text,
      json: parseJson(text),
    };
    if (response.status < 200 || response.status >= 300) throw this.#refusal(answer);
    return answer;
  }

  async #withRetries<T>(call: PlatformCall, attempt: () => Promise<T>): Promise<T> {
    const policy = { retries: call.retries ?? this.options.retries, maxRetryAfterMs: this.options.maxRetryAfterMs };
    const idempotent = call.idempotent ?? IDEMPOTENT_METHODS.has(call.method);
    const signal = this.#signal(call);
    return retrying(attempt, { ...policy, idempotent, ...(signal ? { signal } : {}), fail: (e) => this.#redact(e) });
  }

  #read(answer: HttpAnswer): unknown {
    if (this.options.read) return this.options.read(answer);
    if (answer.text.trim() !== "" && answer.json === undefined) {
      // A 2xx we cannot read may still have done its work (a message sent): not retried.
      throw new ChorusError("E_PLATFORM", `${this.options.label} sent an unreadable answer (${answer.operation})`, {
        retryable: false,
        details: { status: answer.status, body: answer.text.slice(0, 200) },
      });
    }
    return answer.json;
  }

  #refusal(answer: HttpAnswer): ChorusError {
    const custom = this.options.refusal?.(answer);
    if (custom) return custom;
    const { status, operation } = answer;
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(answer.headers.get("retry-after"));
      return new RateLimitedError(`${this.options.label} rate limit (${operation})`, retryAfterMs, {
        hint: `Wait ${Math.ceil(retryAfterMs / 1000)} s before trying again.`,
      });
    }
    const said = platformMessage(answer.json);
    const code = codeForStatus(status);
    const hint = this.options.hints?.[code];
    return new PlatformHttpError(
      code,
      `${this.options.label} refused to ${operation} (HTTP ${status})${said ? `: ${said}` : ""}`,
      status,
      undefined,
      { retryable: status >= 500 || status === 408, ...(hint !== undefined ? { hint } : {}) },
    );
  }

  #signal(call: PlatformCall): AbortSignal | undefined {
    const signals = [this.options.signal, call.signal].filter((s): s is AbortSignal => s !== undefined);
    return signals.length <= 1 ? signals[0] : anySignal(signals);
  }

  #redact(error: unknown): unknown {
    return this.options.redactor && error instanceof Error ? this.options.redactor.error(error) : error;
  }
}

/** The useful part of a fetch failure: undici hides the reason (`ECONNREFUSED …`) in `cause`. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code && cause.message)
    return cause.message.includes(cause.code) ? cause.message : `${cause.code} ${cause.message}`;
  return cause?.message ?? (error as Error).message ?? String(error);
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
