import { codeForStatus, type HttpAnswer, PlatformHttpError, parseRetryAfter } from "@chorus/channel-kit";
import { type ChorusError, type ErrorCode, RateLimitedError } from "@chorus/core";

/**
 * Feishu's own error codes, from its Open API docs (the error tables of message create/reply,
 * message reactions, chats and the server-side error code list). Feishu answers `{ code, msg }`
 * with HTTP 200 or 4xx; the code says more than the status.
 */
export const FeishuCode = {
  /** `tenant_access_token/internal`: the app id is not one Feishu knows. */
  invalidAppId: 10003,
  /** `tenant_access_token/internal`: "app secret invalid". */
  invalidAppSecret: 10014,
  /** "Missing access token for authorization." */
  missingToken: 99991661,
  /** "Invalid access token for authorization." — the tenant token expired or was revoked. */
  invalidToken: 99991663,
  /** The token is for another app or tenant. */
  tokenMismatch: 99991668,
  /** "Access denied. One of the following scopes is required: […]" */
  scopeMissing: 99991672,
  /** "request trigger frequency limit": the app's per-API limit. */
  frequencyLimit: 99991400,
  /** Sending messages: the per-chat or per-user limit (5 per second). */
  sendFrequencyLimit: 230020,
  /** Chats: "The request has been rate limited." */
  chatFrequencyLimit: 232019,
  /** Sending: "The bot can not be outside the group." */
  botNotInGroup: 230002,
  /** Sending to a user outside the bot's availability range. */
  botUnavailableToUser: 230013,
  /** Replying: "The message was withdrawn." */
  messageWithdrawn: 230011,
  /** Reactions and messages: "The message is not found, maybe not exist or deleted." */
  messageNotFound: 231003,
  /** Reactions: the thread of the message was removed without trace. */
  threadRemoved: 231005,
  /** Reactions: "reaction type is invalid." */
  invalidReactionType: 231001,
  /** Reactions: "The operator has no permission to react on the specific message." */
  noPermissionToReact: 231002,
  /** Reactions: "The operator has no access to the message." */
  noAccessToMessage: 231008,
  /** Chats: "Operator can NOT be out of the chat." */
  operatorNotInChat: 232011,
  /** Sending: "The type of file upload does not match the type of message being sent." (`audio` wants opus, `media` mp4). */
  fileTypeMismatch: 230055,
  /** Uploads: "The file size exceed the max value." (images 10 MB, files 30 MB). */
  fileTooLarge: 234006,
  /** Uploads: "File's size can't be 0." */
  emptyFile: 234010,
  /** Image uploads: "Can't regonnize the image format." (sic). */
  imageFormat: 234011,
  /** Message resources: the key is not a resource of that message. */
  resourceNotInMessage: 234003,
  /** Message resources: "Downloaded file size exceeds limit." (over 100 MB). */
  downloadTooLarge: 234037,
  /** Message resources: those of merged forwards and cards cannot be downloaded. */
  resourceUnsupported: 234043,
} as const;

const AUTH_CODES = new Set<number>([
  FeishuCode.invalidAppId,
  FeishuCode.invalidAppSecret,
  FeishuCode.missingToken,
  FeishuCode.invalidToken,
  FeishuCode.tokenMismatch,
  FeishuCode.scopeMissing,
]);
const RATE_LIMIT_CODES = new Set<number>([
  FeishuCode.frequencyLimit,
  FeishuCode.sendFrequencyLimit,
  FeishuCode.chatFrequencyLimit,
]);
const GONE_CODES = new Set<number>([
  FeishuCode.messageWithdrawn,
  FeishuCode.messageNotFound,
  FeishuCode.threadRemoved,
  FeishuCode.resourceNotInMessage,
]);
const TOO_LARGE_CODES = new Set<number>([FeishuCode.fileTooLarge, FeishuCode.downloadTooLarge]);
const UNREADABLE_MEDIUM_CODES = new Set<number>([FeishuCode.emptyFile, FeishuCode.imageFormat]);
const NOT_IN_CHAT_CODES = new Set<number>([
  FeishuCode.botNotInGroup,
  FeishuCode.botUnavailableToUser,
  FeishuCode.noPermissionToReact,
  FeishuCode.noAccessToMessage,
  FeishuCode.operatorNotInChat,
]);

/** What to do about each kind of refusal; shown to the agent and in the logs. */
export const HINTS = {
  credentials: "Check channels.feishu.appId and appSecret (developer console → Credentials & Basic Info).",
  scope: "Add the missing permission scope in the developer console (Permissions & Scopes) and publish a new version.",
  notInChat:
    "Add the bot to the chat (chat settings → Group bots → Add bot), or add the user to the app's availability.",
} as const;

/** A Feishu envelope: `code` 0 is success. */
export interface FeishuEnvelope {
  code?: unknown;
  msg?: unknown;
}

/** The Feishu code of an answer's body, when it is Feishu's envelope. */
export function envelopeCode(body: unknown): number | undefined {
  const code = (body as FeishuEnvelope | undefined)?.code;
  return typeof body === "object" && body !== null && typeof code === "number" ? code : undefined;
}

/**
 * The error a Feishu answer with a non-zero `code` means, or undefined when the body is not
 * Feishu's envelope (a proxy's error page): the kit's status mapping applies then.
 */
export function feishuRefusal(answer: HttpAnswer): ChorusError | undefined {
  const code = envelopeCode(answer.json);
  if (code === undefined || code === 0) return undefined;
  const said = String((answer.json as FeishuEnvelope).msg ?? "").slice(0, 300);
  const message = `Feishu refused to ${answer.operation} (HTTP ${answer.status}, code ${code})${said ? `: ${said}` : ""}`;
  if (RATE_LIMIT_CODES.has(code) || answer.status === 429) {
    return new RateLimitedError(message, retryAfterMs(answer.headers), {
      details: { status: answer.status, platformCode: String(code) },
      hint: "Feishu limits how fast an app may call it; wait and try again.",
    });
  }
  const { errorCode, hint, retryable } = classify(code, answer.status);
  return new PlatformHttpError(errorCode, message, answer.status, String(code), {
    retryable,
    ...(hint !== undefined ? { hint } : {}),
  });
}

function classify(code: number, status: number): { errorCode: ErrorCode; hint?: string; retryable: boolean } {
  if (code === FeishuCode.scopeMissing) return { errorCode: "E_AUTH", hint: HINTS.scope, retryable: false };
  if (AUTH_CODES.has(code)) return { errorCode: "E_AUTH", hint: HINTS.credentials, retryable: false };
  if (GONE_CODES.has(code)) return { errorCode: "E_MESSAGE_NOT_FOUND", retryable: false };
  if (NOT_IN_CHAT_CODES.has(code)) return { errorCode: "E_PLATFORM", hint: HINTS.notInChat, retryable: false };
  if (code === FeishuCode.invalidReactionType) return { errorCode: "E_UNSUPPORTED_EMOJI", retryable: false };
  if (TOO_LARGE_CODES.has(code)) return { errorCode: "E_TOO_LARGE", retryable: false };
  if (UNREADABLE_MEDIUM_CODES.has(code)) return { errorCode: "E_INVALID_INPUT", retryable: false };
  if (code === FeishuCode.resourceUnsupported) return { errorCode: "E_UNSUPPORTED", retryable: false };
  // Anything else: what the status says (400 → E_INVALID_INPUT, 5xx → retryable E_PLATFORM).
  const errorCode = status >= 200 && status < 300 ? "E_PLATFORM" : codeForStatus(status);
  return { errorCode, retryable: status >= 500 };
}

/**
 * How long Feishu asks to wait: `Retry-After` where a gateway sends it, else its own
 * `x-ogw-ratelimit-reset` (seconds until the limit window resets), else a second.
 */
function retryAfterMs(headers: Headers): number {
  if (headers.get("retry-after") !== null) return parseRetryAfter(headers.get("retry-after"));
  const reset = Number(headers.get("x-ogw-ratelimit-reset"));
  return Number.isFinite(reset) && reset > 0 ? Math.ceil(reset * 1000) : 1000;
}
