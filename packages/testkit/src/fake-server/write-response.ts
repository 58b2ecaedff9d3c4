import type { ServerResponse } from "node:http";
import { type Fault, MALFORMED_BODY } from "./faults.js";
import type { FakeResponse } from "./types.js";

/** Sends a `FakeResponse` (unless the client is gone) and returns the status it carries. */
export function writeResponse(res: ServerResponse, response: FakeResponse): number {
  const status = response.status ?? 200;
  if (res.destroyed || res.writableEnded) return status;
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(response.headers ?? {})) headers[name.toLowerCase()] = value;
  if (response.stream) {
    res.writeHead(status, headers);
    res.flushHeaders();
    response.stream(res);
    return status;
  }
  let payload: string | Buffer | undefined;
  if (response.json !== undefined) {
    payload = JSON.stringify(response.json);
    headers["content-type"] ??= "application/json; charset=utf-8";
  } else if (response.body !== undefined) {
    payload = response.body;
    if (typeof payload === "string") headers["content-type"] ??= "text/plain; charset=utf-8";
    else headers["content-type"] ??= "application/octet-stream";
  }
  if (payload !== undefined) headers["content-length"] = Buffer.byteLength(payload);
  res.writeHead(status, headers);
  res.end(payload);
  return status;
}

/** The answer a rate-limit, status or malformed fault gives; undefined for the other kinds. */
export function faultResponse(fault: Fault): FakeResponse | undefined {
  switch (fault.kind) {
    case "rateLimit":
      return {
        status: fault.status ?? 429,
        headers: { ...fault.headers, "retry-after": String(fault.retryAfterSeconds) },
        json: fault.body ?? { error: "rate limited", retry_after: fault.retryAfterSeconds },
      };
    case "status":
      return {
        status: fault.status,
        headers: { ...fault.headers },
        json: fault.body ?? { error: "injected fault", status: fault.status },
      };
    case "malformed":
      return {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8" },
        body: fault.body ?? MALFORMED_BODY,
      };
    default:
      return undefined;
  }
}
