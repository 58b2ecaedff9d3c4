import { ChorusError, type ErrorCode, RateLimitedError } from "@chorus/core";
import { DiscordAPIError, HTTPError, RateLimitError } from "discord.js";

/** Discord JSON error codes that mean the addressed message, channel or emoji does not exist. */
const NOT_FOUND_CODES = new Set([10003, 10008, 10015]);
const UNKNOWN_EMOJI = 10014;

/** Turns whatever discord.js threw into a ChorusError; `what` names the call (`send`, `react`). */
export function toDiscordError(error: unknown, what: string): ChorusError {
  if (error instanceof ChorusError) return error;
  if (error instanceof RateLimitError) {
    return new RateLimitedError(`Discord rate limit on ${what} (${error.route})`, error.retryAfter, {
      hint: `Wait ${Math.ceil(error.retryAfter / 1000)}s before trying again.`,
      cause: error,
    });
  }
  if (error instanceof DiscordAPIError) {
    const code = typeof error.code === "number" ? error.code : 0;
    return new ChorusError(codeFor(error.status, code), `Discord refused ${what}: ${error.status} ${error.message}`, {
      retryable: error.status >= 500,
      details: { status: error.status, code },
      ...hintFor(error.status, code),
      cause: error,
    });
  }
  if (error instanceof HTTPError) {
    return new ChorusError("E_PLATFORM", `Discord failed ${what}: ${error.status} ${error.message}`, {
      retryable: true,
      details: { status: error.status },
      cause: error,
    });
  }
  if (isTokenInvalid(error)) {
    return new ChorusError("E_AUTH", `Discord refused the bot token (${what})`, {
      hint: "Check channels.discord.token (Developer Portal → Bot → Reset Token).",
      cause: error,
    });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ChorusError("E_PLATFORM", `Discord unreachable (${what}): ${reason}`, { retryable: true, cause: error });
}

function codeFor(status: number, code: number): ErrorCode {
  if (status === 401) return "E_AUTH";
  if (code === UNKNOWN_EMOJI) return "E_UNSUPPORTED_EMOJI";
  if (status === 404 || NOT_FOUND_CODES.has(code)) return "E_MESSAGE_NOT_FOUND";
  if (status === 403) return "E_AUTH";
  if (status >= 500) return "E_PLATFORM";
  return "E_INVALID_INPUT";
}

function hintFor(status: number, code: number): { hint?: string } {
  if (status === 401) return { hint: "Check channels.discord.token (Developer Portal → Bot → Reset Token)." };
  if (status === 403) {
    return {
      hint: "The bot lacks a permission here (View Channel, Send Messages, Add Reactions, Read Message History).",
    };
  }
  if (code === UNKNOWN_EMOJI)
    return { hint: "Use a unicode emoji, or a custom emoji of a server the bot is in as name:id." };
  return {};
}

function isTokenInvalid(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === "TokenInvalid" || code === "TokenMissing";
}
