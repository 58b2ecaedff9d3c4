import { ChorusError, type ErrorCode, RateLimitedError } from "@chorus/core";
import { DiscordAPIError, HTTPError, RateLimitError } from "discord.js";

/** Discord JSON error codes that mean the addressed message, channel or emoji does not exist. */
const NOT_FOUND_CODES = new Set([10003, 10008, 10015]);
const UNKNOWN_EMOJI = 10014;
/** "Request entity too large", answered with 413 (developers/topics/opcodes-and-status-codes). */
const TOO_LARGE = 40005;
const TOKEN_HINT = "Check channels.discord.token (Developer Portal → Bot → Reset Token).";

/** Gateway close codes after which Discord will not take the session back (developers/topics/opcodes-and-status-codes). */
const GATEWAY_CLOSES: Record<number, { code: ErrorCode; what: string; hint?: string }> = {
  4004: { code: "E_AUTH", what: "authentication failed", hint: TOKEN_HINT },
  4010: { code: "E_PLATFORM", what: "invalid shard" },
  4011: { code: "E_PLATFORM", what: "sharding required" },
  4012: { code: "E_PLATFORM", what: "invalid API version" },
  4013: { code: "E_INVALID_INPUT", what: "invalid intents" },
  4014: {
    code: "E_AUTH",
    what: "disallowed intents",
    hint: "Enable Message Content Intent (Developer Portal → Bot → Privileged Gateway Intents), or set messageContent: false.",
  },
};

/** Why Discord closed the gateway, for a status (`Discord closed the gateway: 4004 authentication failed`). */
export function gatewayCloseReason(code: number): string {
  const known = GATEWAY_CLOSES[code];
  return `Discord closed the gateway: ${code}${known ? ` ${known.what}` : ""}`;
}

/** The error of a login that Discord ended with close code `code`. */
export function gatewayCloseError(code: number, cause?: unknown): ChorusError {
  const known = GATEWAY_CLOSES[code];
  return new ChorusError(known?.code ?? "E_PLATFORM", gatewayCloseReason(code), {
    retryable: known === undefined,
    details: { closeCode: code },
    ...(known?.hint ? { hint: known.hint } : {}),
    ...(cause !== undefined ? { cause } : {}),
  });
}

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
    return new ChorusError("E_AUTH", `Discord refused the bot token (${what})`, { hint: TOKEN_HINT, cause: error });
  }
  return new ChorusError("E_PLATFORM", `Discord unreachable (${what}): ${reasonOf(error)}`, {
    retryable: true,
    cause: error,
  });
}

/** A network failure in words: the message plus the system code underneath (`fetch failed (ECONNREFUSED)`). */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "AbortError") return "no answer within timeoutMs";
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  if (error instanceof SyntaxError) return `an answer that is not JSON (${error.message})`;
  return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}

function codeFor(status: number, code: number): ErrorCode {
  if (status === 401) return "E_AUTH";
  if (status === 413 || code === TOO_LARGE) return "E_TOO_LARGE";
  if (code === UNKNOWN_EMOJI) return "E_UNSUPPORTED_EMOJI";
  if (status === 404 || NOT_FOUND_CODES.has(code)) return "E_MESSAGE_NOT_FOUND";
  if (status === 403) return "E_AUTH";
  if (status >= 500) return "E_PLATFORM";
  return "E_INVALID_INPUT";
}

function hintFor(status: number, code: number): { hint?: string } {
  if (status === 401) return { hint: TOKEN_HINT };
  if (status === 403) {
    return {
      hint: "The bot lacks a permission here (View Channel, Send Messages, Add Reactions, Read Message History).",
    };
  }
  if (status === 413 || code === TOO_LARGE) {
    return {
      hint: "Discord takes files of up to 10 MiB each and 25 MiB per message (more on boosted servers): send fewer or smaller files.",
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
