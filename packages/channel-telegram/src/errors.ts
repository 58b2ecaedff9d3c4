import { ChorusError, type ErrorCode, RateLimitedError } from "@chorus/core";
import { GrammyError, HttpError } from "grammy";

/** Descriptions Telegram uses when the chat or message the bot addressed does not exist (any more). */
const NOT_FOUND = /not found|MESSAGE_ID_INVALID|message to react|message can't be|PEER_ID_INVALID|chat_id is empty/i;

/** A refusal from the Bot API (`{ok:false,error_code,description,parameters}`), as a ChorusError. */
export class TelegramApiError extends ChorusError {
  override readonly name = "TelegramApiError";

  constructor(
    readonly method: string,
    readonly errorCode: number,
    readonly description: string,
    readonly parameters: { migrate_to_chat_id?: number; retry_after?: number } = {},
  ) {
    super(codeFor(errorCode, description), `Telegram refused ${method}: ${errorCode} ${description}`, {
      retryable: errorCode >= 500 || errorCode === 409,
      details: { method, errorCode, description, ...parameters },
      ...hintFor(errorCode, description),
    });
  }
}

/** How one attempt of a call ended, besides the error itself. */
export interface CallFacts {
  /** The instance is stopping (its signal aborted the call). */
  stopping: boolean;
  /** The attempt was cut off after this many milliseconds without an answer. */
  timedOutMs?: number;
  /** Repeating the call cannot do its work twice. */
  idempotent: boolean;
}

/**
 * Turns whatever grammY threw into a ChorusError (rate limits keep their `retry_after`). Messages
 * never quote the request URL: it carries the bot token (`…/bot<token>/getMe`).
 */
export function toTelegramError(error: unknown, method: string, facts: CallFacts): ChorusError {
  if (error instanceof ChorusError) return error;
  if (error instanceof GrammyError) {
    if (error.error_code === 429) {
      const retryAfterMs = Math.max(0, (error.parameters.retry_after ?? 1) * 1000);
      return new RateLimitedError(`Telegram rate limit on ${method}: ${error.description}`, retryAfterMs, {
        hint: `Wait ${Math.ceil(retryAfterMs / 1000)}s before trying again.`,
      });
    }
    return new TelegramApiError(method, error.error_code, error.description, error.parameters);
  }
  if (facts.stopping) return new ChorusError("E_DISABLED", "Telegram is stopping", { cause: error });
  const inner = error instanceof HttpError ? error.error : error;
  if (facts.timedOutMs === undefined && isUnreadable(inner)) {
    // An answer arrived but is not JSON: a send may have done its work, so only idempotent calls repeat.
    return new ChorusError("E_PLATFORM", `Telegram sent an unreadable answer to ${method} (not JSON)`, {
      retryable: facts.idempotent,
      details: { method, unreadable: true },
      cause: error,
      hint: "Check channels.telegram.apiRoot: it must be a Telegram Bot API server.",
    });
  }
  const reason = facts.timedOutMs !== undefined ? `no answer within ${facts.timedOutMs} ms` : networkReason(inner);
  return new ChorusError("E_PLATFORM", `Telegram unreachable (${method}): ${reason}`, {
    retryable: true,
    details: { method, network: true },
    cause: error,
    hint: "Check channels.telegram.apiRoot and the network between the gateway and Telegram.",
  });
}

/** An answer that is JSON but not a Bot API answer (no `ok`): a proxy's or load balancer's error page. */
export function notBotApiAnswer(method: string, answer: unknown): ChorusError {
  const shown = JSON.stringify(answer)?.slice(0, 120) ?? String(answer);
  return new ChorusError("E_PLATFORM", `Telegram answered ${method} with something that is not a Bot API answer`, {
    retryable: true,
    details: { method, answer: shown },
    hint: "Check channels.telegram.apiRoot: it must be a Telegram Bot API server.",
  });
}

/** node-fetch reports a body that is not JSON as `invalid-json`; other fetches throw a SyntaxError. */
function isUnreadable(error: unknown): boolean {
  return error instanceof SyntaxError || (error as { type?: unknown } | undefined)?.type === "invalid-json";
}

/** The useful part of a fetch failure, without the URL: node-fetch says `request to <url> failed, reason: …`. */
function networkReason(error: unknown): string {
  const { code: own, message, cause } = (error ?? {}) as { code?: unknown; message?: unknown; cause?: unknown };
  // fetch (the uploads) reports `TypeError: fetch failed` with the reason in its cause.
  const code = own ?? (cause as { code?: unknown } | undefined)?.code;
  const text = typeof message === "string" ? message : String(error);
  const reason = /reason: (.*)$/s.exec(text)?.[1] ?? (/^request to /.test(text) ? "request failed" : text);
  return typeof code === "string" && !reason.includes(code) ? `${code} ${reason}` : reason;
}

/** Refusals of a medium over one of Telegram's limits (an upload over 50 MB, a photo over 10 MB, a download over 20 MB). */
const TOO_LARGE = /file is too big|Request Entity Too Large|PHOTO_SAVE_FILE_INVALID/i;

function codeFor(errorCode: number, description: string): ErrorCode {
  if (errorCode === 413 || ((errorCode === 400 || errorCode === 413) && TOO_LARGE.test(description)))
    return "E_TOO_LARGE";
  if (errorCode === 401 || errorCode === 403) return "E_AUTH";
  if (errorCode === 400 && /REACTION_INVALID|REACTIONS_TOO_MANY/i.test(description)) return "E_UNSUPPORTED_EMOJI";
  if ((errorCode === 400 || errorCode === 404) && NOT_FOUND.test(description)) return "E_MESSAGE_NOT_FOUND";
  if (errorCode === 400) return "E_INVALID_INPUT";
  return "E_PLATFORM";
}

function hintFor(errorCode: number, description: string): { hint?: string } {
  if (codeFor(errorCode, description) === "E_TOO_LARGE") {
    return {
      hint: "Telegram takes uploads of up to 50 MB (photos up to 10 MB) and lets bots download files of up to 20 MB.",
    };
  }
  if (errorCode === 401) return { hint: "Check channels.telegram.botToken (ask @BotFather for the token)." };
  if (errorCode === 403) return { hint: "The bot was blocked, removed from the chat, or lacks the admin right." };
  if (errorCode === 404) return { hint: "Check channels.telegram.apiRoot and botToken." };
  if (errorCode === 409) return { hint: "Another process polls this bot, or a webhook is set; run only one." };
  return {};
}
