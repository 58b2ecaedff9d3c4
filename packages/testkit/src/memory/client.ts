import { type HttpAnswer, HttpClient, PlatformHttpError, type Redactor } from "@chorus/channel-kit";
import type { ErrorCode } from "@chorus/core";
import type { MemoryConfig } from "./config.js";
import type { WireError } from "./wire.js";

/** The kit's HTTP client pointed at the memory platform, with the platform's error codes mapped. */
export function createMemoryClient(config: MemoryConfig, signal: AbortSignal, redactor: Redactor): HttpClient {
  return new HttpClient({
    label: "memory platform",
    baseUrl: config.baseUrl,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    maxRetryAfterMs: config.maxRetryAfterMs,
    signal,
    redactor,
    headers: { authorization: `Bearer ${config.token}` },
    hints: { E_AUTH: "Check channels.memory.token." },
    refusal: memoryRefusal,
  });
}

/** The error a refused call means, from the platform's error body; undefined where it sent none (or a 429). */
export function memoryRefusal(
  answer: Pick<HttpAnswer, "status" | "json" | "operation">,
): PlatformHttpError | undefined {
  if (answer.status === 429) return undefined;
  const wire = answer.json as Partial<WireError> | undefined;
  const wireCode = typeof wire?.error === "string" ? wire.error : undefined;
  if (wireCode === undefined) return undefined;
  const said = typeof wire?.message === "string" ? `: ${wire.message}` : "";
  return new PlatformHttpError(
    codeFor(answer.status, wireCode),
    `memory platform refused to ${answer.operation} (HTTP ${answer.status} ${wireCode})${said}`,
    answer.status,
    wireCode,
  );
}

function codeFor(status: number, wireCode: string): ErrorCode {
  if (status === 401 || status === 403) return "E_AUTH";
  if (status === 413 || wireCode === "too_large") return "E_TOO_LARGE";
  if (wireCode === "message_not_found" || wireCode === "conversation_not_found" || wireCode === "media_not_found")
    return "E_MESSAGE_NOT_FOUND";
  if (wireCode === "invalid_reaction") return "E_UNSUPPORTED_EMOJI";
  if (wireCode === "removal_not_allowed" || wireCode === "listing_not_allowed") return "E_UNSUPPORTED";
  if (status === 400) return "E_INVALID_INPUT";
  return "E_PLATFORM";
}
