import { ChorusError, type ErrorCode, RateLimitedError } from "@chorus/core";

/**
 * WhatsApp says "rate-overlimit" without a Retry-After; this is how long callers are told to
 * wait. WhatsApp's limits are per minute, and a shorter wait mostly hits the same limit.
 */
export const DEFAULT_RETRY_AFTER_MS = 10_000;

/** Network failures that prove a request never reached WhatsApp. */
const UNREACHABLE = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET|ETIMEDOUT/;

/** Baileys' words when no media host took an upload (`getWAUploadToServer`). */
const MEDIA_UPLOAD_FAILED = /Media upload failed on all hosts/;

/** What a Baileys failure said: the status WhatsApp gave and its words. */
export interface FailureFacts {
  readonly status: number | undefined;
  readonly text: string;
}

/**
 * The status of a Baileys error: a `Boom`'s `output.statusCode`, or the code of an `<error>`
 * node, which Baileys keeps in `data` while the Boom itself says 500.
 */
export function failureFacts(error: unknown): FailureFacts {
  const boom = error as { isBoom?: unknown; output?: { statusCode?: unknown }; data?: unknown; message?: unknown };
  const text = typeof boom?.message === "string" ? boom.message : String(error);
  if (boom?.isBoom !== true) return { status: undefined, text };
  const dataCode = typeof boom.data === "number" ? boom.data : undefined;
  const statusCode = typeof boom.output?.statusCode === "number" ? boom.output.statusCode : undefined;
  if (dataCode !== undefined && dataCode >= 400) return { status: dataCode, text };
  // A Boom made without a status says 500; the error text may still name the real one.
  const byText = textStatus(text);
  if (byText !== undefined && (statusCode === undefined || statusCode === 500)) return { status: byText, text };
  return { status: statusCode, text };
}

/** Turns whatever Baileys threw into a ChorusError; `what` names the call (`send`, `react`, `group lookup`). */
export function toWhatsAppError(error: unknown, what: string): ChorusError {
  if (error instanceof ChorusError) return error;
  const { status, text } = failureFacts(error);
  if (status === undefined) {
    const code = (error as { code?: unknown })?.code;
    const unreachable = UNREACHABLE.test(`${typeof code === "string" ? code : ""} ${text}`);
    return new ChorusError("E_PLATFORM", `WhatsApp ${unreachable ? "unreachable" : "failed"} (${what}): ${text}`, {
      retryable: true,
      cause: error,
    });
  }
  const facts = { details: { status, text }, cause: error };
  if (status === 429) {
    return new RateLimitedError(`WhatsApp rate limit on ${what}: ${text}`, DEFAULT_RETRY_AFTER_MS, {
      ...facts,
      hint: `WhatsApp gives no Retry-After; wait about ${DEFAULT_RETRY_AFTER_MS / 1000}s before trying again.`,
    });
  }
  const code = codeFor(status, text);
  return new ChorusError(code, `WhatsApp refused ${what}: ${status} ${text}`, {
    ...facts,
    retryable: code === "E_PLATFORM" && isTransient(status),
    ...hintFor(status, code),
  });
}

/**
 * Whether a failed call can never have reached WhatsApp: there was no connection to write it to,
 * the connection was closed when it was written (428), the network refused it, or its medium's
 * upload failed (Baileys uploads before it writes the message). Only such sends are repeated (a
 * message must not arrive twice).
 */
export function neverSent(error: ChorusError): boolean {
  return (
    error.details?.notConnected === true ||
    error.details?.status === 428 ||
    UNREACHABLE.test(error.message) ||
    MEDIA_UPLOAD_FAILED.test(error.message)
  );
}

function codeFor(status: number, text: string): ErrorCode {
  if (status === 401 || status === 403 || status === 419) return "E_AUTH";
  if (status === 404 || /item-not-found/i.test(text)) return "E_MESSAGE_NOT_FOUND";
  if (status === 400 || status === 406) return "E_INVALID_INPUT";
  return "E_PLATFORM";
}

/** Timeouts, closed connections, restarts and server failures pass; other refusals do not. */
function isTransient(status: number): boolean {
  return status === 408 || status === 428 || status === 440 || status === 515 || status >= 500;
}

function textStatus(text: string): number | undefined {
  if (/rate-overlimit/i.test(text)) return 429;
  if (/item-not-found/i.test(text)) return 404;
  if (/not-authorized/i.test(text)) return 401;
  if (/forbidden/i.test(text)) return 403;
  return undefined;
}

function hintFor(status: number, code: ErrorCode): { hint?: string } {
  if (status === 401 || status === 419) {
    return { hint: "The linked device was logged out; link it again: chorus channels login whatsapp" };
  }
  if (status === 403) return { hint: "The linked account may not be a member of this group, or may not write here." };
  if (code === "E_MESSAGE_NOT_FOUND") return { hint: "Check the chat id (a group JID …@g.us or a person's JID)." };
  return {};
}
