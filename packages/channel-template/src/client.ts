import {
  anySignal,
  codeForStatus,
  type HttpAnswer,
  HttpClient,
  type HttpClientOptions,
  type MultipartBody,
  PlatformHttpError,
} from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import type { AcmeConfig } from "./config.js";
import type { AcmeError } from "./wire.js";

const AUTH_HINT = "Check channels.acme.token (Acme console → Bots).";

/**
 * The kit's HTTP client pointed at Acme: timeouts, retries, 429 and `Retry-After`, network
 * failures and redaction are the kit's. Acme's own part is its error body,
 * `{ "error": "already_reacted", "message": "…" }`: its code is kept as `platformCode`, because a
 * status alone cannot tell "you already reacted" (harmless) from other conflicts.
 */
export function createAcmeClient(
  config: AcmeConfig,
  instance: Pick<HttpClientOptions, "signal" | "redactor" | "onReachability">,
): HttpClient {
  return new HttpClient({
    ...instance,
    label: "Acme Chat",
    baseUrl: config.baseUrl,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    maxRetryAfterMs: config.maxRetryAfterMs,
    headers: { authorization: `Bearer ${config.token}` },
    hints: { E_AUTH: AUTH_HINT },
    refusal: acmeRefusal,
  });
}

/** What Acme's error body means; undefined where it sent none (or a rate limit): the kit's mapping then. */
function acmeRefusal(answer: HttpAnswer): PlatformHttpError | undefined {
  const body = answer.json as Partial<AcmeError> | undefined;
  // Not Acme's error body (a proxy's page), or a rate limit: the kit's mapping knows best.
  if (typeof body?.error !== "string" || answer.status === 429) return undefined;
  const code =
    body.error === "unknown_reaction"
      ? "E_UNSUPPORTED_EMOJI"
      : answer.status === 413
        ? "E_TOO_LARGE"
        : codeForStatus(answer.status);
  const said = body.message ? `: ${body.message}` : "";
  const message = `Acme Chat refused to ${answer.operation} (HTTP ${answer.status} ${body.error})${said}`;
  const hint = code === "E_AUTH" ? { hint: AUTH_HINT } : {};
  return new PlatformHttpError(code, message, answer.status, body.error, hint);
}

/**
 * POSTs a streamed multipart form (an upload) with Acme's error mapping. The kit's `HttpClient`
 * sends bodies it holds whole; a file goes through `fetch` instead, read from its stream as it is
 * sent. One attempt: a lost answer may mean the file was posted.
 */
export async function postForm<T>(
  client: HttpClient,
  path: string,
  form: MultipartBody,
  operation: string,
): Promise<T> {
  const { options } = client;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(client.url({ path }), {
      method: "POST",
      headers: { ...options.headers, "content-type": form.contentType, "content-length": String(form.contentLength) },
      body: form.body,
      // Not followed: fetch would keep a copy of the streamed body to resend it (nodejs/undici#4058).
      redirect: "error",
      duplex: "half", // a streamed request body
      signal: options.signal ? anySignal([options.signal, timeout]) : timeout,
    } as RequestInit);
    text = await response.text();
  } catch (error) {
    const failure = new ChorusError("E_PLATFORM", `Acme Chat unreachable (${operation})`, {
      retryable: true,
      cause: error,
    });
    throw options.redactor?.error(failure) ?? failure;
  }
  const json = parseJson(text);
  const { status, headers } = response;
  if (status >= 200 && status < 300) return json as T;
  const refused =
    acmeRefusal({ call: { method: "POST", path }, operation, status, headers, text, json }) ??
    new PlatformHttpError(
      codeForStatus(status),
      `Acme Chat refused to ${operation} (HTTP ${status})`,
      status,
      undefined,
    );
  throw options.redactor?.error(refused) ?? refused;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // empty, or not Acme's answer (a proxy's page)
  }
}
