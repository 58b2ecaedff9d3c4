import { ChorusError, type DownloadedMedium } from "@chorus/core";
import { codeForStatus } from "../http/errors.js";
import { capStream, tooLarge } from "./capped-stream.js";

export interface MediaDownloadOptions {
  /** Stop with `E_TOO_LARGE` past this many bytes, without reading the rest. */
  readonly maxBytes: number;
  readonly signal?: AbortSignal | undefined;
  /** The medium in error messages (`Telegram file AgAD…`); never the URL, which may carry a token. */
  readonly what: string;
  /** Credentials (an `Authorization` header) for the platform's own hosts. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Origins (`https://api.telegram.org`) that may receive `headers`: the configured API base and the
   * platform's documented file hosts. A redirect elsewhere is followed without them (DESIGN §2.6).
   */
  readonly credentialOrigins?: readonly string[];
  /** Redirects followed at most (default 5). */
  readonly maxRedirects?: number;
  readonly fetch?: typeof fetch;
}

/**
 * Downloads a medium from where its platform keeps it, as a stream capped at `maxBytes`: a declared
 * `Content-Length` over the cap fails before any byte is read, a body that grows past it fails
 * there. A missing medium (404, 410) is `E_MESSAGE_NOT_FOUND`, a refused one (401, 403) `E_AUTH`.
 */
export async function downloadMedium(url: string | URL, options: MediaDownloadOptions): Promise<DownloadedMedium> {
  const doFetch = options.fetch ?? fetch;
  const trusted = new Set(options.credentialOrigins ?? []);
  let target = new URL(url);
  for (let hop = 0; ; hop++) {
    const headers = trusted.has(target.origin) ? { ...options.headers } : {};
    let response: Response;
    try {
      response = await doFetch(target, {
        headers,
        redirect: "manual",
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      throw new ChorusError("E_PLATFORM", `Downloading ${options.what} failed: ${causeOf(error)}.`, {
        retryable: true,
      });
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel().catch(() => undefined);
      if (hop >= (options.maxRedirects ?? 5)) {
        throw new ChorusError("E_PLATFORM", `Downloading ${options.what} was redirected too often.`, {
          retryable: false,
        });
      }
      target = new URL(location, target);
      continue;
    }
    if (!response.ok || response.body === null) {
      await response.body?.cancel().catch(() => undefined);
      const code = codeForStatus(response.status);
      throw new ChorusError(
        code === "E_INVALID_INPUT" ? "E_PLATFORM" : code,
        `Downloading ${options.what} failed: HTTP ${response.status}.`,
        {
          retryable: response.status >= 500 || response.status === 429,
          details: { status: response.status },
        },
      );
    }
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    const size = Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
    if (size !== undefined && size > options.maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw tooLarge(options.what, options.maxBytes, size);
    }
    const mime = response.headers.get("content-type")?.split(";")[0]?.trim();
    return {
      stream: capStream(response.body, options.maxBytes, options.what),
      ...(mime ? { mime } : {}),
      ...(size !== undefined ? { size } : {}),
    };
  }
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } })?.cause;
  if (typeof cause?.code === "string") return cause.code;
  return error instanceof Error ? error.name : "network error";
}
