import { timingSafeEqual } from "node:crypto";
import type { HttpHandler, Logger } from "@chorus/core";
import type { Update } from "grammy/types";
import type { UpdateSink } from "./update-sink.js";

/** The header Telegram sends the `secret_token` of `setWebhook` in. */
export const SECRET_HEADER = "x-telegram-bot-api-secret-token";

export interface WebhookOptions {
  secretToken: string;
  /** The sink, once the instance is started; undefined before (answered 503, Telegram retries). */
  sink(): UpdateSink | undefined;
  logger: Logger;
}

/**
 * The webhook route: check `X-Telegram-Bot-Api-Secret-Token` first (401 without reading the
 * body otherwise), then hand the update to the sink. A 2xx tells Telegram the update is done.
 */
export function createWebhookHandler(options: WebhookOptions): HttpHandler {
  return async (request) => {
    if (!secretMatches(request.headers.get(SECRET_HEADER), options.secretToken)) {
      options.logger.warn({ reason: "secret token missing or wrong" }, "telegram: refused a webhook");
      return Response.json({ ok: false, error: "unauthorized" }, { status: 401 });
    }
    const sink = options.sink();
    if (!sink) return Response.json({ ok: false, error: "not_ready" }, { status: 503 });
    let update: Update;
    try {
      update = (await request.json()) as Update;
    } catch {
      return Response.json({ ok: false, error: "bad_request" }, { status: 400 });
    }
    if (typeof update?.update_id !== "number")
      return Response.json({ ok: false, error: "bad_request" }, { status: 400 });
    await sink.accept(update);
    return Response.json({ ok: true });
  };
}

/** Constant-time comparison, so the answer time does not leak how much of a guess was right. */
export function secretMatches(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
