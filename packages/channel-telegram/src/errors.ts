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
      ...hintFor(errorCode),
    });
  }
}

/** Turns whatever grammY threw into a ChorusError (rate limits keep their `retry_after`). */
export function toTelegramError(error: unknown, method: string, aborted: boolean): ChorusError {
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
  if (aborted) return new ChorusError("E_DISABLED", "Telegram is stopping", { cause: error });
  const reason = error instanceof HttpError ? String((error.error as Error)?.message ?? error.message) : String(error);
  return new ChorusError("E_PLATFORM", `Telegram unreachable (${method}): ${reason}`, {
    retryable: true,
    cause: error,
  });
}

function codeFor(errorCode: number, description: string): ErrorCode {
  if (errorCode === 401 || errorCode === 403) return "E_AUTH";
  if (errorCode === 400 && /REACTION_INVALID|REACTIONS_TOO_MANY/i.test(description)) return "E_UNSUPPORTED_EMOJI";
  if ((errorCode === 400 || errorCode === 404) && NOT_FOUND.test(description)) return "E_MESSAGE_NOT_FOUND";
  if (errorCode === 400) return "E_INVALID_INPUT";
  return "E_PLATFORM";
}

function hintFor(errorCode: number): { hint?: string } {
  if (errorCode === 401) return { hint: "Check channels.telegram.botToken (ask @BotFather for the token)." };
  if (errorCode === 403) return { hint: "The bot was blocked, removed from the chat, or lacks the admin right." };
  if (errorCode === 404) return { hint: "Check channels.telegram.apiRoot and botToken." };
  if (errorCode === 409) return { hint: "Another process polls this bot, or a webhook is set; run only one." };
  return {};
}
