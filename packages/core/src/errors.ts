/** Every error code a Chorus operation can fail with (DESIGN §2.4). */
export const ERROR_CODES = [
  "E_INVALID_INPUT",
  "E_EMOJI_REQUIRED",
  "E_UNSUPPORTED",
  "E_UNSUPPORTED_EMOJI",
  "E_MESSAGE_NOT_FOUND",
  "E_DISABLED",
  "E_AUTH",
  "E_RATE_LIMITED",
  "E_PLATFORM",
  "E_TOO_LARGE",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ChorusErrorOptions {
  /** True when the same call may succeed if tried again later. */
  retryable?: boolean | undefined;
  /** What the caller (often the agent) can do instead. */
  hint?: string | undefined;
  /** Structured facts for programs (alternatives, the offending path, …). */
  details?: Record<string, unknown> | undefined;
  cause?: unknown;
}

/** The one error type of Chorus: a stable `code`, a human message, and whether to retry. */
export class ChorusError extends Error {
  override readonly name: string = "ChorusError";
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: ChorusErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? defaultRetryable(code);
    this.hint = options.hint;
    this.details = options.details;
  }

  /** The shape sent to agents and HTTP clients: no stack, no cause. */
  toJSON(): ErrorPayload {
    const payload: ErrorPayload = { code: this.code, message: this.message, retryable: this.retryable };
    if (this.hint !== undefined) payload.hint = this.hint;
    if (this.details !== undefined) payload.details = this.details;
    return payload;
  }
}

/** A platform said "slow down"; `retryAfterMs` is how long it asked us to wait. */
export class RateLimitedError extends ChorusError {
  override readonly name = "RateLimitedError";
  readonly retryAfterMs: number;

  constructor(message: string, retryAfterMs: number, options: Omit<ChorusErrorOptions, "retryable"> = {}) {
    super("E_RATE_LIMITED", message, {
      ...options,
      retryable: true,
      details: { ...options.details, retryAfterMs },
    });
    this.retryAfterMs = retryAfterMs;
  }
}

/** An emoji the channel cannot represent; `alternatives` are the closest ones it can. */
export class UnsupportedEmojiError extends ChorusError {
  override readonly name = "UnsupportedEmojiError";
  readonly emoji: string;
  readonly alternatives: readonly string[];

  constructor(message: string, emoji: string, alternatives: readonly string[], hint?: string) {
    super("E_UNSUPPORTED_EMOJI", message, {
      retryable: false,
      hint: hint ?? (alternatives.length > 0 ? `Try one of: ${alternatives.join(", ")}` : undefined),
      details: { emoji, alternatives: [...alternatives] },
    });
    this.emoji = emoji;
    this.alternatives = alternatives;
  }
}

export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  hint?: string;
  details?: Record<string, unknown>;
}

/** True for any `ChorusError`, also one created by another copy of this package. */
export function isChorusError(value: unknown): value is ChorusError {
  if (value instanceof ChorusError) return true;
  if (!(value instanceof Error)) return false;
  const { code, retryable } = value as Error & { code?: unknown; retryable?: unknown };
  return (
    typeof code === "string" && (ERROR_CODES as readonly string[]).includes(code) && typeof retryable === "boolean"
  );
}

/** Wraps anything thrown into a `ChorusError`; unknown failures become `E_PLATFORM`. */
export function toChorusError(value: unknown, context?: string): ChorusError {
  if (value instanceof ChorusError) return value;
  if (isChorusError(value)) {
    return new ChorusError(value.code, value.message, {
      retryable: value.retryable,
      hint: value.hint,
      details: value.details,
      cause: value,
    });
  }
  const text = value instanceof Error ? value.message : String(value);
  return new ChorusError("E_PLATFORM", context ? `${context}: ${text}` : text, { retryable: true, cause: value });
}

function defaultRetryable(code: ErrorCode): boolean {
  return code === "E_RATE_LIMITED" || code === "E_PLATFORM";
}
