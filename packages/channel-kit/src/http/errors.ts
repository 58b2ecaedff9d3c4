import { ChorusError, type ErrorCode } from "@chorus/core";

/** A refusal from a platform's HTTP API, keeping its status and the platform's own error code. */
export class PlatformHttpError extends ChorusError {
  override readonly name = "PlatformHttpError";

  constructor(
    code: ErrorCode,
    message: string,
    readonly status: number,
    /** The platform's machine-readable error (`already_reacted`, `99991663`), when it sent one. */
    readonly platformCode: string | undefined,
    options: { retryable?: boolean; hint?: string; details?: Record<string, unknown> } = {},
  ) {
    super(code, message, {
      retryable: options.retryable ?? status >= 500,
      ...(options.hint !== undefined ? { hint: options.hint } : {}),
      details: { status, ...(platformCode !== undefined ? { platformCode } : {}), ...options.details },
    });
  }
}

/** The error code an HTTP status means when the platform says nothing more precise. */
export function codeForStatus(status: number): ErrorCode {
  if (status === 401 || status === 403) return "E_AUTH";
  if (status === 404 || status === 410) return "E_MESSAGE_NOT_FOUND";
  // A 413 is a text over a platform's limit as often as a file: an upload maps it to E_TOO_LARGE itself.
  if (status === 400 || status === 413 || status === 422) return "E_INVALID_INPUT";
  return "E_PLATFORM";
}

/** A short human reason for a refused request, from the fields platforms commonly use. */
export function platformMessage(body: unknown): string | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ["message", "description", "msg", "error_description", "error"]) {
    const value = record[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim().slice(0, 300);
    if (value !== null && typeof value === "object") {
      const nested = platformMessage(value);
      if (nested) return nested;
    }
  }
  return undefined;
}
