import { abortableDelay, PlatformHttpError, type Redactor, type RetryPolicy, retryDelay } from "@chorus/channel-kit";
import { ChorusError, isChorusError, RateLimitedError } from "@chorus/core";
import { type CallFacts, observed } from "./transport.js";

/** What to run after `chorus channels login zalouser`: said by every error that needs a new login. */
export const LOGIN_HINT = "Link the account again with `chorus channels login zalouser`.";

/**
 * Zalo's codes for a session it no longer accepts: 102 "The session key was improperly submitted
 * or has reached its timeout. Direct the user to log in again to obtain another key".
 */
export const SESSION_ENDED_CODES: readonly number[] = [102];

/** Whether an error means Zalo ended the session (a new login is the only way back). */
export const sessionEnded = (error: unknown): boolean =>
  isChorusError(error) && error.code === "E_AUTH" && error.details?.sessionEnded === true;

/** The reason of a fetch failure: undici hides it (`ECONNREFUSED …`) in `cause`. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code && cause.message)
    return cause.message.includes(cause.code) ? cause.message : `${cause.code} ${cause.message}`;
  if ((error as Error).name === "TimeoutError") return "no answer in time";
  return cause?.message ?? (error as Error).message ?? String(error);
}

/**
 * The Chorus error a failed zca-js call means. zca-js reports everything as `ZcaApiError`
 * ("Request failed with status code 503", an `error_code` from Zalo) or lets fetch errors through;
 * what the transport saw of the exchange (`facts`) tells rate limits, outages and network
 * failures apart.
 */
export function toChorusError(error: unknown, facts: CallFacts, operation: string): ChorusError {
  if (isChorusError(error)) return error;
  const said = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  if (facts.loginCode !== undefined && facts.loginCode !== 0) {
    const why = facts.loginMessage ? `: ${facts.loginMessage}` : "";
    return new ChorusError("E_AUTH", `Zalo refused the saved session (error ${facts.loginCode}${why})`, {
      hint: LOGIN_HINT,
      details: { platformCode: String(facts.loginCode), sessionEnded: SESSION_ENDED_CODES.includes(facts.loginCode) },
    });
  }
  if (typeof code === "number" && SESSION_ENDED_CODES.includes(code)) {
    return new PlatformHttpError(
      "E_AUTH",
      `Zalo ended the session (${operation}): ${said}`,
      facts.status ?? 200,
      String(code),
      {
        hint: LOGIN_HINT,
        details: { sessionEnded: true },
      },
    );
  }
  if (facts.networkError !== undefined) {
    return new ChorusError("E_PLATFORM", `Zalo unreachable (${operation}): ${networkReason(facts.networkError)}`, {
      retryable: true,
      details: { network: true },
      cause: facts.networkError,
    });
  }
  const status = facts.status ?? 0;
  if (status === 429) {
    return new RateLimitedError(`Zalo asked to slow down (${operation})`, facts.retryAfterMs ?? 1_000);
  }
  if (status >= 500)
    return new PlatformHttpError("E_PLATFORM", `Zalo failed to ${operation} (HTTP ${status})`, status, undefined);
  if (status === 401 || status === 403) {
    return new PlatformHttpError("E_AUTH", `Zalo refused to ${operation} (HTTP ${status})`, status, undefined, {
      hint: LOGIN_HINT,
    });
  }
  if (status >= 400) {
    return new PlatformHttpError("E_PLATFORM", `Zalo refused to ${operation} (HTTP ${status})`, status, undefined, {
      retryable: false,
    });
  }
  if (error instanceof SyntaxError || /parse response/i.test(said)) {
    return new ChorusError("E_PLATFORM", `Zalo sent an unreadable answer (${operation})`, {
      retryable: false,
      cause: error,
    });
  }
  const platformCode = typeof code === "number" ? String(code) : undefined;
  const detail = platformCode ? ` (error ${platformCode})` : "";
  return new PlatformHttpError("E_PLATFORM", `Zalo refused to ${operation}${detail}: ${said}`, status, platformCode, {
    retryable: false,
  });
}

export interface ZaloCallOptions {
  /** What the call does, for messages (`send a message to 123`). */
  operation: string;
  policy: RetryPolicy;
  redactor: Redactor;
  /** Repeating the call cannot do its work twice; false for sends. */
  idempotent: boolean;
  signal?: AbortSignal;
}

/**
 * Runs one zca-js call with the kit's retry rules (a short rate limit waited out, a 5xx or a
 * network failure retried with backoff; a send is not repeated after a failure that may have
 * reached Zalo) and returns its result with the facts of the attempt that succeeded.
 */
export async function zaloCall<T>(
  call: () => Promise<T>,
  options: ZaloCallOptions,
): Promise<{ result: T; facts: CallFacts }> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await observed(call);
    if (outcome.error === undefined) return { result: outcome.result as T, facts: outcome.facts };
    const failure = toChorusError(outcome.error, outcome.facts, options.operation);
    const wait = retryDelay(failure, attempt, options.policy, { idempotent: options.idempotent });
    if (wait === undefined || options.signal?.aborted) throw options.redactor.error(failure);
    await abortableDelay(wait, options.signal);
  }
}
