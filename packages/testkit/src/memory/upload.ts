import { anySignal, codeForStatus, PlatformHttpError, type Redactor, tooLarge } from "@chorus/channel-kit";
import { ChorusError, type OutboundMedium } from "@chorus/core";
import { memoryRefusal } from "./client.js";
import type { MemoryConfig } from "./config.js";
import type { WireUpload } from "./wire.js";

/** What an upload needs of its instance. */
export interface UploadOptions {
  config: MemoryConfig;
  /** The platform's limit: a larger medium is refused before a byte is read. */
  maxBytes: number;
  signal: AbortSignal;
  redactor: Redactor;
}

/**
 * Uploads one medium to `POST /v1/uploads` (see `wire.ts`), its bytes streamed from `open()` as the
 * request body: the kit's `HttpClient` sends bodies it holds whole, so this one call goes through
 * `fetch` with the client's error mapping. One attempt: an unattached upload is harmless, and the
 * gateway's outbox sends again a message whose send failed.
 */
export async function uploadMedium(medium: OutboundMedium, options: UploadOptions): Promise<WireUpload> {
  const what = `"${medium.filename}"`;
  // Checked before opening the stream: the platform would refuse it, after reading every byte.
  if (medium.size > options.maxBytes) throw tooLarge(what, options.maxBytes, medium.size);
  const { config } = options;
  const operation = `upload ${what}`;
  const timeout = AbortSignal.timeout(config.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${config.baseUrl.replace(/\/+$/u, "")}/v1/uploads`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${config.token}`,
        "content-type": medium.mime,
        "content-length": String(medium.size),
        "x-filename": encodeURIComponent(medium.filename),
      },
      body: medium.open(),
      duplex: "half",
      // Without it undici's fetch tees a stream body to follow redirects and keeps the unread
      // branch: the whole upload in memory (nodejs/undici#4058). A stream cannot be resent anyway.
      redirect: "error",
      signal: anySignal([options.signal, timeout]),
    } as RequestInit);
    text = await response.text();
  } catch (error) {
    if (options.signal.aborted) throw new ChorusError("E_DISABLED", "memory platform is stopping");
    const reason = timeout.aborted ? `no answer within ${config.timeoutMs} ms` : causeOf(error);
    const failure = new ChorusError("E_PLATFORM", `memory platform unreachable (${operation}): ${reason}`, {
      retryable: true,
      cause: error,
    });
    throw options.redactor.error(failure);
  }
  const json = parseJson(text);
  if (!response.ok) {
    const { status } = response;
    const refusal =
      memoryRefusal({ status, json, operation }) ??
      new PlatformHttpError(
        codeForStatus(status),
        `memory platform refused to ${operation} (HTTP ${status})`,
        status,
        undefined,
        {
          retryable: status >= 500 || status === 429,
        },
      );
    throw options.redactor.error(refusal);
  }
  return json as WireUpload;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } })?.cause;
  return typeof cause?.code === "string" ? cause.code : error instanceof Error ? error.message : "network error";
}
