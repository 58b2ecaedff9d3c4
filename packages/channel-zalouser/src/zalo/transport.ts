import { AsyncLocalStorage } from "node:async_hooks";
import { anySignal, parseRetryAfter } from "@chorus/channel-kit";
import { decryptAes, encryptAes, loginKey } from "./crypto.js";
import { redirectZaloUrl, redirectZaloUrls } from "./hosts.js";

/** What the transport saw of the HTTP exchanges of one platform call (zca-js keeps none of it). */
export interface CallFacts {
  /** The status of the last answer. */
  status?: number;
  /** `Retry-After` of the last answer, in milliseconds. */
  retryAfterMs?: number;
  /** Why the last request got no answer (refused, reset, timed out). */
  networkError?: unknown;
  /** The encrypted `params` of each request (its form's, else its query's), in order (a send's own client id is in it). */
  readonly sentParams: string[];
  /** The inner `error_code` of a `getLoginInfo` answer (102: the session key has timed out). */
  loginCode?: number;
  loginMessage?: string;
}

const calls = new AsyncLocalStorage<CallFacts>();

/** Runs `call` and keeps what the transport saw of its requests. */
export async function observed<T>(call: () => Promise<T>): Promise<{ facts: CallFacts; result?: T; error?: unknown }> {
  const facts: CallFacts = { sentParams: [] };
  try {
    return { facts, result: await calls.run(facts, call) };
  } catch (error) {
    return { facts, error };
  }
}

export interface ZaloTransportOptions {
  /** Where every Zalo host is redirected (config `apiBase`); unset: Zalo's own hosts. */
  apiBase?: string;
  /** Zalo's media hosts (config `mediaHosts`), redirected with the rest (a voice message's URL zca-js checks). */
  mediaHosts?: readonly string[];
  /** One request's time limit. */
  timeoutMs: number;
  /** The instance's lifetime: stopping aborts requests in flight. */
  signal?: AbortSignal;
}

/**
 * The fetch zca-js is given as its `polyfill`: every request of zca-js goes through it. It
 * redirects Zalo hosts to `apiBase`, bounds each request by `timeoutMs`, records what the
 * current call saw (`observed`), and reads the inner code of a `getLoginInfo` answer — with
 * `apiBase`, it also redirects the service map and listener URLs inside that encrypted answer.
 */
export function createZaloFetch(options: ZaloTransportOptions): typeof fetch {
  return async (input, init = {}) => {
    const original = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const url = options.apiBase ? redirectZaloUrl(original, options.apiBase, options.mediaHosts) : original;
    const facts = calls.getStore();
    // The form's `params`, or the query's where the body is a file (uploads, a GIF).
    const params =
      init.body instanceof URLSearchParams ? init.body.get("params") : new URL(original).searchParams.get("params");
    if (facts && params) facts.sentParams.push(params);
    const signals = [AbortSignal.timeout(options.timeoutMs), init.signal, options.signal].filter(
      (s): s is AbortSignal => s instanceof AbortSignal,
    );
    const { agent: _agent, ...rest } = init as RequestInit & { agent?: unknown };
    let response: Response;
    try {
      response = await fetch(url, { ...rest, signal: anySignal(signals) });
    } catch (error) {
      if (facts) facts.networkError = error;
      throw error;
    }
    if (facts) {
      facts.status = response.status;
      facts.networkError = undefined;
      const retryAfter = response.headers.get("retry-after");
      if (retryAfter) facts.retryAfterMs = parseRetryAfter(retryAfter);
    }
    if (response.ok && new URL(original).pathname === "/api/login/getLoginInfo") {
      return readLoginAnswer(response, new URL(original), options.apiBase, facts);
    }
    return response;
  };
}

/** Notes the inner code of a `getLoginInfo` answer and, with `apiBase`, redirects the URLs inside it. */
async function readLoginAnswer(
  response: Response,
  url: URL,
  apiBase: string | undefined,
  facts: CallFacts | undefined,
): Promise<Response> {
  const text = await response.text();
  const again = () => {
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    headers.delete("content-encoding");
    return { status: response.status, statusText: response.statusText, headers };
  };
  try {
    const body = JSON.parse(text) as { data?: unknown };
    const zcid = url.searchParams.get("zcid");
    const zcidExt = url.searchParams.get("zcid_ext");
    if (typeof body.data !== "string" || !zcid || !zcidExt) return new Response(text, again());
    const key = loginKey(zcid, zcidExt);
    const inner = JSON.parse(decryptAes(key, body.data)) as { error_code?: number; error_message?: string };
    if (facts) {
      facts.loginCode = inner.error_code ?? 0;
      if (inner.error_message) facts.loginMessage = inner.error_message;
    }
    const info = (inner as { data?: { zpw_ws?: unknown } }).data;
    if (!apiBase || !info?.zpw_ws) return new Response(text, again());
    // Only the listener URLs: zca-js opens the WebSocket itself, not through this fetch. The service
    // map keeps Zalo's hosts, so zca-js picks the cookies of those hosts; this fetch redirects them.
    info.zpw_ws = redirectZaloUrls(info.zpw_ws, apiBase);
    const data = encryptAes(key, JSON.stringify(inner));
    return new Response(JSON.stringify({ ...body, data }), again());
  } catch {
    // Not the answer zca-js expects either: zca-js itself reports that it cannot read it.
    return new Response(text, again());
  }
}
