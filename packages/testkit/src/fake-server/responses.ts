import type { FakeResponse, ResponseHeaders } from "./types.js";

/** A JSON answer. */
export function json(status: number, body: unknown, headers?: ResponseHeaders): FakeResponse {
  return headers === undefined ? { status, json: body } : { status, json: body, headers };
}

/** A plain-text answer (`text/plain; charset=utf-8` unless `headers` say otherwise). */
export function text(status: number, body: string, headers?: ResponseHeaders): FakeResponse {
  return { status, body, headers: { "content-type": "text/plain; charset=utf-8", ...headers } };
}

/** An answer without a body (204 by default). */
export function empty(status = 204, headers?: ResponseHeaders): FakeResponse {
  return headers === undefined ? { status } : { status, headers };
}
