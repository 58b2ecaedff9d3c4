import { PlatformHttpError } from "@chorus/channel-kit";
import { ChorusError, type ErrorCode, RateLimitedError } from "@chorus/core";
import { WebAPIHTTPError, WebAPIPlatformError, WebAPIRateLimitedError, WebAPIRequestError } from "@slack/web-api";

/** Which token a call was made with: the hint names the one to fix. */
export type SlackTokenKind = "bot" | "app";

/** What is known about the attempt that failed, besides the error. */
export interface SlackCallFacts {
  /** The Web API method (`reactions.add`). */
  method: string;
  token: SlackTokenKind;
  /** The instance is stopping: its signal aborted the call. */
  stopping: boolean;
  /** Repeating the call cannot do its work twice. */
  idempotent: boolean;
  /** The per-request timeout, to say "no answer within". */
  timeoutMs: number;
}

/** Slack's `error` codes that mean the token is wrong, revoked or its workspace gone. */
const AUTH_CODES = new Set(["invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired"]);
const NOT_FOUND_CODES = new Set([
  "channel_not_found",
  "message_not_found",
  "thread_not_found",
  "invalid_channel",
  "file_not_found",
  "file_deleted",
]);
const INVALID_CODES = new Set([
  "msg_too_long",
  "no_text",
  "invalid_arguments",
  "invalid_blocks",
  "too_many_reactions",
  "missing_argument",
]);
/** The files API's refusals (files.getUploadURLExternal, files.completeUploadExternal error tables), with what to do. */
const FILE_REFUSALS: Record<string, [ErrorCode, string]> = {
  file_uploads_disabled: [
    "E_DISABLED",
    "A workspace admin turned file uploads off; describe the file in text, or link to it.",
  ],
  file_upload_size_restricted: [
    "E_TOO_LARGE",
    "The workspace restricts the size of uploads (an admin setting); send a smaller file or a link.",
  ],
  file_type_not_allowed: ["E_UNSUPPORTED", "The workspace does not allow this type of file (an admin setting)."],
  storage_limit_reached: ["E_PLATFORM", "The workspace used up its file storage (free plans: 5 GB)."],
};
/** Slack's own "try again" codes (answered with HTTP 200). */
const TRANSIENT_CODES = new Set(["internal_error", "fatal_error", "service_unavailable", "request_timeout"]);
/** What Slack's error codes look like; anything else in `error` is an answer that was not the Web API's. */
const SLACK_CODE = /^[a-z][a-z0-9_]{1,60}$/;

const TOKEN_HINT: Record<SlackTokenKind, string> = {
  bot: "Check channels.slack.botToken (OAuth & Permissions → Bot User OAuth Token, xoxb-…) and that the app is installed.",
  app: "Check channels.slack.appToken (Basic Information → App-Level Tokens, xapp-… with connections:write).",
};

/**
 * Turns what `@slack/web-api` threw into a ChorusError: Slack's `ok: false` codes (kept as
 * `platformCode`), HTTP 429 with its `Retry-After`, other HTTP statuses, network failures.
 */
export function slackError(error: unknown, facts: SlackCallFacts): ChorusError {
  if (error instanceof ChorusError) return error;
  const { method } = facts;
  if (error instanceof WebAPIPlatformError)
    return platformError(String(error.data.error ?? ""), error.data as unknown as Record<string, unknown>, facts);
  if (error instanceof WebAPIRateLimitedError) return rateLimited(method, error.retryAfter * 1000);
  // A 429 without a usable Retry-After: the library gives up with a plain error.
  if (error instanceof Error && error.message.startsWith("Retry header did not contain a valid timeout")) {
    return rateLimited(method, 1000);
  }
  if (error instanceof WebAPIHTTPError) {
    const code: ErrorCode = error.statusCode >= 500 || error.statusCode === 408 ? "E_PLATFORM" : "E_INVALID_INPUT";
    return new PlatformHttpError(
      code,
      `Slack answered ${method} with HTTP ${error.statusCode}`,
      error.statusCode,
      undefined,
      {
        retryable: code === "E_PLATFORM",
        hint: "Check channels.slack.apiUrl: it must be Slack's Web API.",
      },
    );
  }
  if (facts.stopping) return new ChorusError("E_DISABLED", "Slack is stopping", { cause: error });
  const inner = error instanceof WebAPIRequestError ? error.original : error;
  const timedOut = (inner as { name?: string } | undefined)?.name === "TimeoutError";
  const reason = timedOut ? `no answer within ${facts.timeoutMs} ms` : networkReason(inner);
  return new ChorusError("E_PLATFORM", `Slack unreachable (${method}): ${reason}`, {
    retryable: true,
    details: { method, network: true },
    cause: error,
    hint: "Check channels.slack.apiUrl and the network between the gateway and Slack.",
  });
}

function platformError(code: string, data: Record<string, unknown>, facts: SlackCallFacts): ChorusError {
  const { method } = facts;
  if (!SLACK_CODE.test(code)) {
    // The library puts a body it could not parse as JSON into `error`: not Slack's answer.
    return new ChorusError("E_PLATFORM", `Slack sent an unreadable answer to ${method} (not JSON)`, {
      retryable: facts.idempotent,
      details: { method, unreadable: true },
      hint: "Check channels.slack.apiUrl: it must be Slack's Web API.",
    });
  }
  const refused = (errorCode: ErrorCode, hint?: string, retryable = false) =>
    new PlatformHttpError(errorCode, `Slack refused ${method}: ${code}`, 200, code, {
      retryable,
      ...(hint !== undefined ? { hint } : {}),
    });
  if (code === "ratelimited") return rateLimited(method, 1000);
  if (AUTH_CODES.has(code))
    return refused("E_AUTH", `The ${facts.token} token was refused. ${TOKEN_HINT[facts.token]}`);
  if (code === "missing_scope") {
    const needed = typeof data.needed === "string" ? ` (${data.needed})` : "";
    return refused("E_AUTH", `Add the missing scope${needed} under OAuth & Permissions and reinstall the app.`);
  }
  const file = FILE_REFUSALS[code];
  if (file) return refused(file[0], file[1]);
  if (code === "not_in_channel" || code === "posting_to_channel_denied") {
    return refused("E_AUTH", "Invite the bot into the channel first (/invite @your-bot), then try again.");
  }
  if (code === "not_allowed_token_type") return refused("E_AUTH", TOKEN_HINT[facts.token]);
  if (NOT_FOUND_CODES.has(code)) return refused("E_MESSAGE_NOT_FOUND");
  if (code === "invalid_name") return refused("E_UNSUPPORTED_EMOJI");
  if (INVALID_CODES.has(code)) return refused("E_INVALID_INPUT");
  if (TRANSIENT_CODES.has(code)) return refused("E_PLATFORM", undefined, true);
  return refused("E_PLATFORM");
}

function rateLimited(method: string, retryAfterMs: number): RateLimitedError {
  return new RateLimitedError(`Slack rate limit on ${method}`, retryAfterMs, {
    hint: `Wait ${Math.ceil(retryAfterMs / 1000)} s before trying again.`,
  });
}

/** The useful part of a fetch failure: undici hides the reason (`ECONNREFUSED …`) in `cause`. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  if (cause?.code && cause.message)
    return cause.message.includes(cause.code) ? cause.message : `${cause.code} ${cause.message}`;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}
