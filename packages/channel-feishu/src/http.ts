import { HttpClient, type HttpClientOptions, type HttpMethod } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import type { FeishuConfig } from "./config.js";
import { envelopeCode, type FeishuEnvelope, feishuRefusal, HINTS } from "./errors.js";

/** Where the long connection asks for its WebSocket URL; its envelope codes are the SDK's to read. */
export const WS_ENDPOINT_PATH = "/callback/ws/endpoint";

/** One request as the SDK hands it to its HTTP instance (axios-shaped). */
export interface SdkRequest {
  url?: string;
  method?: string;
  headers?: Record<string, unknown>;
  params?: Record<string, unknown>;
  data?: unknown;
  $return_headers?: boolean;
}

/** The SDK's `HttpInstance`: what its `Client`, token manager and `WSClient` call. */
export interface SdkHttpInstance {
  request<T = unknown>(opts: SdkRequest): Promise<T>;
  get<T = unknown>(url: string, opts?: SdkRequest): Promise<T>;
  delete<T = unknown>(url: string, opts?: SdkRequest): Promise<T>;
  head<T = unknown>(url: string, opts?: SdkRequest): Promise<T>;
  options<T = unknown>(url: string, opts?: SdkRequest): Promise<T>;
  post<T = unknown>(url: string, data?: unknown, opts?: SdkRequest): Promise<T>;
  put<T = unknown>(url: string, data?: unknown, opts?: SdkRequest): Promise<T>;
  patch<T = unknown>(url: string, data?: unknown, opts?: SdkRequest): Promise<T>;
}

/**
 * The kit's HTTP client pointed at the Open API: timeouts, bounded retries with backoff, 429 and
 * network failures, redaction. Feishu's own part is its envelope `{ code, msg }`, sent with HTTP
 * 200 or 4xx: a non-zero `code` becomes the error it means (`errors.ts`).
 */
export function createFeishuHttpClient(
  config: FeishuConfig,
  baseUrl: string,
  instance: Pick<HttpClientOptions, "signal" | "redactor" | "onReachability">,
): HttpClient {
  return new HttpClient({
    ...instance,
    label: "Feishu",
    baseUrl,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    maxRetryAfterMs: config.maxRetryAfterMs,
    hints: { E_AUTH: HINTS.credentials },
    refusal: feishuRefusal,
    read(answer) {
      const body = answer.json;
      if (typeof body !== "object" || body === null) {
        throw new ChorusError("E_PLATFORM", `Feishu sent an answer that is not JSON (${answer.operation})`, {
          retryable: false,
          details: { status: answer.status, body: answer.text.slice(0, 200) },
        });
      }
      // The long connection's endpoint: its codes (auth failed, busy, …) drive the SDK's own retry decisions.
      if (answer.call.path.startsWith(WS_ENDPOINT_PATH)) return body;
      const code = envelopeCode(body);
      if (code !== undefined && code !== 0) throw feishuRefusal(answer);
      return body as FeishuEnvelope;
    },
  });
}

/**
 * The SDK's HTTP instance, carried by the kit's client instead of the SDK's own axios: every Open
 * API call, token request and long-connection endpoint request gets the kit's retries, timeouts,
 * error mapping and redaction. Answers are the JSON bodies, as the SDK's axios interceptor returns.
 */
export function sdkHttpInstance(client: HttpClient, baseUrl: string): SdkHttpInstance {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/$/u, "");
  const request = async <T>(opts: SdkRequest): Promise<T> => {
    if (opts.$return_headers) {
      throw new ChorusError("E_INVALID_INPUT", "Feishu: downloads with headers are not supported by this channel");
    }
    const method = (opts.method ?? "GET").toUpperCase() as HttpMethod;
    const url = new URL(opts.url ?? "/", `${baseUrl}/`);
    // The SDK builds absolute URLs from the configured domain; nothing may leave for another host.
    if (url.origin !== base.origin || !url.pathname.startsWith(basePath)) {
      throw new ChorusError(
        "E_INVALID_INPUT",
        `Feishu: refusing a request outside the configured domain (${url.origin})`,
      );
    }
    const query = serializeParams(url.searchParams, opts.params);
    const path = url.pathname.slice(basePath.length) + (query ? `?${query}` : "");
    const json = bodyOf(method, opts.data);
    return client.request<T>({
      method,
      path,
      headers: headersOf(opts.headers),
      ...(json !== undefined ? { json } : {}),
      operation: `${method} ${url.pathname}`,
      // Messages carry a `uuid`: Feishu sends one message per uuid, so a POST may be repeated safely.
      ...(isRecord(opts.data) && typeof opts.data.uuid === "string" ? { idempotent: true } : {}),
    });
  };
  const withData = (method: string) => (url: string, data?: unknown, opts?: SdkRequest) =>
    request({ ...opts, url, method, data });
  const withoutData = (method: string) => (url: string, opts?: SdkRequest) => request({ ...opts, url, method });
  return {
    request,
    get: withoutData("GET"),
    delete: withoutData("DELETE"),
    head: withoutData("HEAD"),
    options: withoutData("OPTIONS"),
    post: withData("POST"),
    put: withData("PUT"),
    patch: withData("PATCH"),
  } as SdkHttpInstance;
}

/** The query string of `params` (arrays repeat their key, as the SDK's serializer does); empty values left out. */
function serializeParams(existing: URLSearchParams, params: Record<string, unknown> | undefined): string {
  const query = new URLSearchParams(existing);
  for (const [key, value] of Object.entries(params ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null && item !== "") query.append(key, String(item));
    }
  }
  return query.toString();
}

/** A JSON body, except the empty one the SDK attaches to reads (fetch refuses a GET with a body). */
function bodyOf(method: HttpMethod, data: unknown): unknown {
  if (data === undefined || data === null) return undefined;
  if ((method === "GET" || method === "HEAD" || method === "DELETE") && isRecord(data)) {
    return Object.keys(data).length === 0 ? undefined : data;
  }
  return data;
}

/** The SDK's headers as strings; the content type is the kit's to set. */
function headersOf(headers: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined || value === null || name.toLowerCase() === "content-type") continue;
    out[name] = String(value);
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
