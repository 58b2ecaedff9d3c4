import { abortableDelay, anySignal, type Redactor, retryDelay } from "@chorus/channel-kit";
import type { ChorusError } from "@chorus/core";
import { Api, GrammyError, type Transformer } from "grammy";
import type { TelegramConfig } from "./config.js";
import { notBotApiAnswer, toTelegramError } from "./errors.js";
import { MultipartCall, postMultipart } from "./upload.js";

/** Calls that must not be repeated blindly: a lost answer may mean the message did arrive. */
const NOT_IDEMPOTENT = new Set([
  "sendMessage",
  "sendPhoto",
  "sendVideo",
  "sendAudio",
  "sendVoice",
  "sendDocument",
  "sendSticker",
  "sendMediaGroup",
  "sendLocation",
  "sendVenue",
]);
/** grammY's own per-call timeout, left far above ours: the transformer times each attempt itself. */
const GRAMMY_TIMEOUT_SECONDS = 24 * 60 * 60;

/** What the API client needs besides the config. */
export interface TelegramApiOptions {
  /** The instance's lifetime: stopping aborts calls in flight and retry waits. */
  signal: AbortSignal;
  /** Removes the bot token (and other secrets) from every error the client throws. */
  redactor: Redactor;
}

type Call = Parameters<Transformer>[0];
type Answer = Awaited<ReturnType<Call>>;

/**
 * The grammY API client for one account, pointed at `config.apiRoot`. One transformer is the
 * one place for cross-cutting concerns: it times every attempt (`timeoutMs`, a long poll its
 * wait on top, an upload time for its bytes), maps failures to ChorusErrors, retries them with the
 * kit's policy (sends are not idempotent) and redacts what it throws. `getUpdates` is not retried
 * here: the poller owns its reconnect backoff. A `MultipartCall` payload (an upload) is posted by
 * `postMultipart` instead of grammY.
 */
export function createTelegramApi(config: TelegramConfig, options: TelegramApiOptions): Api {
  const api = new Api(config.botToken, { apiRoot: config.apiRoot, timeoutSeconds: GRAMMY_TIMEOUT_SECONDS });
  api.config.use(async (prev, method, payload, callSignal) => {
    const idempotent = !NOT_IDEMPOTENT.has(method);
    const policy = method === "getUpdates" ? { ...config, retries: 0 } : config;
    const timeoutMs =
      config.timeoutMs +
      (method === "getUpdates" ? longPollMs(payload) : 0) +
      (payload instanceof MultipartCall ? payload.uploadAllowanceMs : 0);
    const signals = [options.signal, ...(callSignal ? [callSignal as AbortSignal] : [])];
    const send: Call = (m, p, s) =>
      p instanceof MultipartCall ? (postMultipart(config, m, p, s as AbortSignal) as Promise<Answer>) : prev(m, p, s);
    for (let attempt = 0; ; attempt++) {
      const outcome = await once(send, method, payload, { signals, timeoutMs, idempotent });
      if (!isFailure(outcome)) return outcome;
      const wait = retryDelay(outcome, attempt, policy, { idempotent });
      if (wait === undefined || options.signal.aborted) throw options.redactor.error(outcome);
      await abortableDelay(wait, options.signal);
      if (options.signal.aborted) throw options.redactor.error(outcome);
    }
  });
  return api;
}

interface AttemptOptions {
  signals: AbortSignal[];
  timeoutMs: number;
  idempotent: boolean;
}

/** One attempt: Telegram's answer, or the ChorusError it amounts to. */
async function once(
  prev: Call,
  method: Parameters<Call>[0],
  payload: Parameters<Call>[1],
  { signals, timeoutMs, idempotent }: AttemptOptions,
): Promise<Answer | ChorusError> {
  const timeout = AbortSignal.timeout(timeoutMs);
  // grammY types the signal with its own AbortSignal shim; the platform one is what it uses.
  const signal = anySignal([timeout, ...signals]) as Parameters<Call>[2];
  try {
    const answer = await prev(method, payload, signal);
    if (answer?.ok === true) return answer;
    if (answer?.ok !== false || typeof answer.error_code !== "number") return notBotApiAnswer(method, answer);
    // grammY turns `ok:false` into a GrammyError after the transformers; do it here to decide.
    const refusal = new GrammyError(answer.description, answer, method, payload as Record<string, unknown>);
    return toTelegramError(refusal, method, { stopping: false, idempotent });
  } catch (error) {
    const stopping = signals.some((s) => s.aborted);
    const timedOut = !stopping && timeout.aborted ? { timedOutMs: timeoutMs } : {};
    return toTelegramError(error, method, { stopping, idempotent, ...timedOut });
  }
}

/** The wait of a `getUpdates` long poll (Telegram's `timeout`, in seconds), in milliseconds. */
function longPollMs(payload: unknown): number {
  const seconds = (payload as { timeout?: unknown } | undefined)?.timeout;
  return typeof seconds === "number" && seconds > 0 ? seconds * 1000 : 0;
}

function isFailure(outcome: Answer | ChorusError): outcome is ChorusError {
  return outcome instanceof Error;
}
