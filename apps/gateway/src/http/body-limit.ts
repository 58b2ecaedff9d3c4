import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

export interface BodySizeLimitOptions {
  maxSize: number;
  onError(c: Context): Response | Promise<Response>;
}

/**
 * Hono's `bodyLimit`, deciding from the headers when they tell (no body for GET and HEAD, a
 * Content-Length without Transfer-Encoding) before it touches `request.body`: that getter makes
 * the Node adapter build a web `Request` around a stream for every request, where the handler's
 * `arrayBuffer()` or `json()` would read the socket directly (most of a webhook's cost with
 * many accounts). A body sent without a length is counted as it streams, as before.
 */
export function bodySizeLimit(options: BodySizeLimitOptions): MiddlewareHandler {
  const streamed = bodyLimit(options);
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const length = c.req.header("content-length");
    if (length === undefined || c.req.header("transfer-encoding") !== undefined) return streamed(c, next);
    if (Number.parseInt(length, 10) > options.maxSize) return options.onError(c);
    return next();
  };
}
