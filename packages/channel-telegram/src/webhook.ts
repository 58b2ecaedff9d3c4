import { safeEqual } from "@chorus/channel-kit";
import type { HttpHandler, Logger } from "@chorus/core";
import type { UpdateSink } from "./update-sink.js";

/** The header Telegram sends the `secret_token` of `setWebhook` in. */
export const SECRET_HEADER = "x-telegram-bot-api-secret-token";

/** What the webhook route needs. */
export interface WebhookOptions {
  secretToken: string;
  /** The sink, once the instance is started; undefined before (answered 503, Telegram retries). */
  sink(): UpdateSink | undefined;
  logger: Logger;
}

/**
 * The webhook transport: checks `X-Telegram-Bot-Api-Secret-Token` first (401 without reading the
 * body otherwise), then hands the update to the sink. A 2xx tells Telegram the update is done, so
 * an update that cannot be read is still answered 200 (with a warning): Telegram would only send
 * it again. A body that is no update at all (no JSON, no `update_id`) is answered 400.
 */
export function createWebhookHandler(options: WebhookOptions): HttpHandler {
  return async (request) => {
    if (!secretMatches(request.headers.get(SECRET_HEADER), options.secretToken)) {
      options.logger.warn({ reason: "secret token missing or wrong" }, "telegram: refused a webhook delivery");
      return Response.json({ ok: false, error: "unauthorized" }, { status: 401 });
    }
    const sink = options.sink();
    if (!sink) return Response.json({ ok: false, error: "not_ready" }, { status: 503 });
    let payload: unknown;
    try {
      payload = await request.json();
    } catch (error) {
      const problem = `the body is not JSON (${(error as Error).message})`;
      options.logger.warn({ problem }, `telegram: ignored a webhook delivery it could not read: ${problem}`);
      return Response.json({ ok: false, error: "bad_request" }, { status: 400 });
    }
    try {
      await sink.accept(payload);
    } catch (error) {
      options.logger.error({ err: error }, "telegram: a webhook update could not be handled; Telegram will retry");
      return Response.json({ ok: false, error: "internal" }, { status: 500 });
    }
    const isUpdate = typeof (payload as { update_id?: unknown } | null)?.update_id === "number";
    return isUpdate ? Response.json({ ok: true }) : Response.json({ ok: false, error: "bad_request" }, { status: 400 });
  };
}

/** Whether a delivery carries the configured secret (constant time: the answer time leaks nothing). */
export function secretMatches(given: string | null, expected: string): boolean {
  return given !== null && safeEqual(given, expected);
}
