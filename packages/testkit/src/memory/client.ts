import { ChorusError, RateLimitedError } from "@chorus/core";
import type { MemoryConfig } from "./config.js";
import type { WireError } from "./wire.js";

/** A platform answer the caller may want to treat as success (`already_reacted`, `no_reaction`). */
export class MemoryApiError extends ChorusError {
  override readonly name = "MemoryApiError";
  constructor(
    readonly status: number,
    readonly wireCode: string,
    message: string,
  ) {
    super(codeFor(status, wireCode), message, { details: { status, error: wireCode } });
  }
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
}

/** A typed client over `fetch` for the memory platform's HTTP API, with bounded retries. */
export class MemoryClient {
  constructor(private readonly config: MemoryConfig) {}

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    let attempt = 0;
    for (;;) {
      try {
        return await this.#once<T>(method, path, options);
      } catch (error) {
        const wait = retryDelay(error, attempt, this.config);
        if (wait === undefined || options.signal?.aborted) throw error;
        attempt++;
        await delay(wait, options.signal);
      }
    }
  }

  async #once<T>(method: string, path: string, options: RequestOptions): Promise<T> {
    let response: Response;
    try {
      response = await fetch(new URL(path, this.config.baseUrl), {
        method,
        headers: { authorization: `Bearer ${this.config.token}`, "content-type": "application/json" },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ChorusError("E_PLATFORM", `memory platform unreachable: ${(error as Error).message}`, {
        retryable: true,
        cause: error,
      });
    }
    const text = await response.text();
    if (response.status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
      throw new RateLimitedError(`memory platform rate limit on ${method} ${path}`, retryAfterMs);
    }
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      throw new ChorusError(
        "E_PLATFORM",
        `memory platform sent an unreadable reply to ${method} ${path} (HTTP ${response.status})`,
        { retryable: response.status >= 500 },
      );
    }
    if (!response.ok) {
      const wire = body as Partial<WireError> | undefined;
      throw new MemoryApiError(
        response.status,
        wire?.error ?? "unknown",
        `memory platform refused ${method} ${path}: HTTP ${response.status} ${wire?.error ?? ""} ${wire?.message ?? ""}`.trim(),
      );
    }
    return body as T;
  }
}

function codeFor(status: number, wireCode: string) {
  if (status === 401 || status === 403) return "E_AUTH" as const;
  if (wireCode === "message_not_found" || wireCode === "conversation_not_found") return "E_MESSAGE_NOT_FOUND" as const;
  if (wireCode === "invalid_reaction") return "E_UNSUPPORTED_EMOJI" as const;
  if (wireCode === "removal_not_allowed" || wireCode === "listing_not_allowed") return "E_UNSUPPORTED" as const;
  if (status === 400 || status === 413) return "E_INVALID_INPUT" as const;
  return "E_PLATFORM" as const;
}

/** How long to wait before the next try, or undefined to give up. */
function retryDelay(error: unknown, attempt: number, config: MemoryConfig): number | undefined {
  if (attempt >= config.retries) return undefined;
  if (error instanceof RateLimitedError) {
    return error.retryAfterMs <= config.maxRetryAfterMs ? error.retryAfterMs : undefined;
  }
  const retryable =
    error instanceof ChorusError && error.retryable && (!(error instanceof MemoryApiError) || error.status >= 500);
  return retryable ? 100 * 2 ** attempt : undefined;
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds (1 s when absent or unreadable). */
export function parseRetryAfter(header: string | null, now = Date.now()): number {
  if (header === null || header.trim() === "") return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - now);
}
