import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  NoContentGeneratedError,
  TypeValidationError,
} from "@ai-sdk/provider";
import { Redactor } from "@chorus/channel-kit";
import { ChorusError, type ErrorCode } from "@chorus/core";
import { type ModelConfig, modelSecrets } from "../config/index.js";
import { isAbortError, ModelRetriesError } from "./model-retries.js";
import { IncompleteModelReplyError } from "./model-step.js";

/** A model call that failed (HTTP error, rate limit, bad reply, timeout, network): one clean line, no stack. */
export class AgentError extends ChorusError {
  override readonly name = "AgentError";
}

/** Names the model in messages: `model "gpt-x" at http://host/v1`, or `the demo model`. */
export function describeModel(config: ModelConfig): string {
  if (config.provider === "demo") return "the demo model";
  if (config.provider === "external") return "the outside agent";
  return `model "${config.model}" at ${safeUrl(config.baseURL)}`;
}

/** The URL without credentials or query (an API key sometimes rides in either). */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    return parsed.href.replace(/\/$/, "");
  } catch {
    return url;
  }
}

/** What else `toAgentError` knows about the failed turn. */
export interface AgentErrorContext {
  /** The caller's signal aborted the turn. */
  cancelled?: boolean;
}

/**
 * Turns whatever a model call threw into an `AgentError` whose message says what failed and where.
 * The model's API key is taken out of it — its message, hint, details and causes — in every
 * spelling: a provider's error body may echo it.
 */
export function toAgentError(error: unknown, config: ModelConfig, context: AgentErrorContext = {}): AgentError {
  if (error instanceof AgentError) return error;
  const redactor = new Redactor(modelSecrets(config));
  return redactor.error(describeFailure(error, config, context)) as AgentError;
}

function describeFailure(error: unknown, config: ModelConfig, context: AgentErrorContext): AgentError {
  const where = describeModel(config);
  const retried = error instanceof ModelRetriesError;
  const cause = retried ? error.lastError : error;
  const attempts = retried ? ` after ${error.errors.length} attempts` : "";
  const base = { provider: config.provider, ...(retried ? { attempts: error.errors.length } : {}) };
  const make = (code: ErrorCode, message: string, options: Failure = {}): AgentError =>
    new AgentError(code, message, {
      retryable: options.retryable,
      hint: options.hint,
      cause: error,
      details: { ...base, ...options.details },
    });

  if (context.cancelled || (isAbortError(cause) && !isTimeout(cause))) {
    return make("E_PLATFORM", `The turn was cancelled before ${where} answered`, { retryable: false });
  }
  if (isTimeout(cause)) {
    const limit = config.provider === "demo" ? "" : ` within ${config.timeoutMs}ms`;
    return make("E_PLATFORM", `The model server did not answer${limit} (${where})${attempts}`, {
      retryable: true,
      hint: "Check that the model server is up, or raise the model's timeoutMs in chorus.json.",
    });
  }
  if (APICallError.isInstance(cause)) {
    const { code, message, ...options } = describeApiCallError(cause, where, attempts);
    return make(code, message, options);
  }
  if (isUnparseable(cause)) {
    return make("E_PLATFORM", invalidReply(where), { retryable: false, hint: INVALID_REPLY_HINT });
  }
  return make("E_PLATFORM", `The model call failed (${where})${attempts}: ${oneLine(messageOf(cause))}`);
}

interface Failure {
  retryable?: boolean | undefined;
  hint?: string | undefined;
  details?: Record<string, unknown> | undefined;
}

const INVALID_REPLY_HINT = "Check that baseURL points at an OpenAI-compatible /v1 endpoint.";

function invalidReply(where: string): string {
  return `The model server sent a reply that is not a valid chat completion (${where})`;
}

function describeApiCallError(
  cause: APICallError,
  where: string,
  attempts: string,
): Failure & { code: ErrorCode; message: string } {
  const status = cause.statusCode;
  const said = oneLine(cause.message);
  if (status === undefined) {
    return {
      code: "E_PLATFORM",
      message: `Cannot reach the model server (${where})${attempts}: ${said}`,
      retryable: true,
      hint: "Check the model's baseURL in chorus.json and that the server is running.",
    };
  }
  if (status >= 200 && status < 300) {
    const details = { status };
    return { code: "E_PLATFORM", message: invalidReply(where), retryable: false, hint: INVALID_REPLY_HINT, details };
  }
  const message = `The model server answered HTTP ${status} (${where})${attempts}${said ? `: ${said}` : ""}`;
  if (status === 429) {
    const retryAfterMs = retryAfter(cause.responseHeaders);
    return {
      code: "E_RATE_LIMITED",
      message,
      retryable: true,
      hint: "The model server is rate limiting: wait, or raise the model's maxRetries.",
      details: { status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
    };
  }
  if (status === 401 || status === 403) {
    return {
      code: "E_AUTH",
      message,
      retryable: false,
      hint: "Check the model's apiKey in chorus.json.",
      details: { status },
    };
  }
  return {
    code: "E_PLATFORM",
    message,
    retryable: status >= 500 || status === 408,
    hint: status === 404 ? "Check the model name and that baseURL ends with the API version (/v1)." : undefined,
    details: { status },
  };
}

function retryAfter(headers: Record<string, string> | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.["retry-after-ms"] ?? "");
  if (Number.isFinite(ms)) return ms;
  const seconds = Number.parseFloat(headers?.["retry-after"] ?? "");
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === "TimeoutError";
}

function isUnparseable(error: unknown): boolean {
  return (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error) ||
    EmptyResponseBodyError.isInstance(error) ||
    NoContentGeneratedError.isInstance(error) ||
    error instanceof IncompleteModelReplyError
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The first line of a message, at most 300 characters. */
function oneLine(text: string): string {
  const line = (text.split("\n").find((part) => part.trim() !== "") ?? "").trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
