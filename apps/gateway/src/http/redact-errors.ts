import { Redactor } from "@chorus/channel-kit";
import type { MiddlewareHandler } from "hono";

/**
 * Takes the gateway's secrets out of every JSON error answer (status 400 and up), whatever
 * produced it — a channel's or a model's error passed on, a path or a value echoed back — field by
 * field, so the answer stays the same JSON. Other answers pass untouched.
 */
export function redactErrorAnswers(redactor: Redactor = new Redactor()): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const answer = c.res;
    if (answer.status < 400 || !answer.headers.get("content-type")?.includes("application/json")) return;
    const text = await answer.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return;
    }
    const clean = JSON.stringify(redactor.value(body));
    if (clean === JSON.stringify(body)) return;
    const headers = new Headers(answer.headers);
    headers.delete("content-length");
    // Unset first: Hono's setter would copy the old answer's headers (its length) onto the new one.
    c.res = undefined;
    c.res = new Response(clean, { status: answer.status, statusText: answer.statusText, headers });
  };
}
