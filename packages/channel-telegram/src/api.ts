import { type ChorusError, RateLimitedError } from "@chorus/core";
import { Api, GrammyError } from "grammy";
import type { TelegramConfig } from "./config.js";
import { TelegramApiError, toTelegramError } from "./errors.js";

/** Calls that must not be repeated blindly: a lost answer may mean the message did arrive. */
const NOT_IDEMPOTENT = new Set(["sendMessage"]);
/** Network failures that prove the request never reached Telegram. */
const NEVER_SENT = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/;

/**
 * The grammY API client for one account, pointed at `config.apiRoot`, with one transformer
 * that maps errors to ChorusErrors and retries 5xx, network errors and short 429s (bounded).
 * `getUpdates` is not retried here: the poller owns its own backoff.
 */
export function createTelegramApi(config: TelegramConfig, signal: AbortSignal): Api {
  const api = new Api(config.botToken, { apiRoot: config.apiRoot, timeoutSeconds: config.timeoutSeconds });
  api.config.use(async (prev, method, payload, callSignal) => {
    for (let attempt = 0; ; attempt++) {
      let failure: ChorusError;
      try {
        const response = await prev(method, payload, callSignal);
        if (response.ok) return response;
        // grammY turns `ok:false` into a GrammyError after the transformers; do it here to decide.
        const refusal = new GrammyError(response.description, response, method, payload as Record<string, unknown>);
        failure = toTelegramError(refusal, method, false);
      } catch (error) {
        failure = toTelegramError(error, method, signal.aborted || (callSignal?.aborted ?? false));
      }
      const wait = method === "getUpdates" ? undefined : retryDelay(failure, method, attempt, config);
      if (wait === undefined || signal.aborted) throw failure;
      await delay(wait, signal);
    }
  });
  return api;
}

/** How long to wait before the next attempt, or undefined to give up now. */
export function retryDelay(
  error: ChorusError,
  method: string,
  attempt: number,
  config: TelegramConfig,
): number | undefined {
  if (attempt >= config.retries) return undefined;
  if (error instanceof RateLimitedError) {
    // A long wait would hold the agent's turn hostage: fail and let the caller decide.
    return error.retryAfterMs <= config.maxRetryAfterMs ? error.retryAfterMs : undefined;
  }
  if (error.code !== "E_PLATFORM" || !error.retryable) return undefined;
  const network = !(error instanceof TelegramApiError);
  if (network && NOT_IDEMPOTENT.has(method) && !NEVER_SENT.test(causeText(error))) return undefined;
  return Math.min(2_000, 100 * 2 ** attempt);
}

function causeText(error: ChorusError): string {
  const cause = error.cause as { error?: { code?: string; message?: string }; message?: string } | undefined;
  return `${cause?.error?.code ?? ""} ${cause?.error?.message ?? ""} ${cause?.message ?? ""} ${error.message}`;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
