import { acknowledges, type Receiver, safeEqual } from "@chorus/channel-kit";
import type { HttpHandler, Logger } from "@chorus/core";
import { albumKeyOf, chatOf } from "./album.js";
import type { AlbumBuffer } from "./album-buffer.js";

/** The header Telegram sends the `secret_token` of `setWebhook` in. */
export const SECRET_HEADER = "x-telegram-bot-api-secret-token";

/** What the webhook route needs. */
export interface WebhookOptions {
  secretToken: string;
  /** Whether the instance is started; before, deliveries are answered 503 (Telegram retries them). */
  running(): boolean;
  receiver: Receiver<unknown>;
  /** Where album items wait for the rest of their album (see `AlbumBuffer`). */
  albums: AlbumBuffer;
  logger: Logger;
}

/**
 * The webhook transport: checks `X-Telegram-Bot-Api-Secret-Token` first (401 without reading the
 * body otherwise), then hands the update to the receiver. A 2xx tells Telegram the update is done:
 * it is answered once the receipt acknowledges it (committed, nothing to commit, or unreadable:
 * Telegram would only send that again), and 503 when the gateway could not commit it, which
 * Telegram retries ("In case of an unsuccessful request (a request with response HTTP status code
 * different from 2XY), we will repeat the request", Bot API, `setWebhook`). A body that is no
 * update at all (no JSON, no `update_id`) is answered 400.
 *
 * An album item is the exception: it is answered 200 once it is in the channel's store (safe: it
 * outlives a crash, and its album's message is emitted from there), not once its album is
 * committed, because Telegram posts a chat's next update only after this one was answered
 * (`AlbumBuffer` says why); 503 when the store failed. A chat's other messages wait until its
 * open album went to the gateway, so they keep their order.
 */
export function createWebhookHandler(options: WebhookOptions): HttpHandler {
  return async (request) => {
    if (!secretMatches(request.headers.get(SECRET_HEADER), options.secretToken)) {
      options.logger.warn({ reason: "secret token missing or wrong" }, "telegram: refused a webhook delivery");
      return Response.json({ ok: false, error: "unauthorized" }, { status: 401 });
    }
    if (!options.running()) return Response.json({ ok: false, error: "not_ready" }, { status: 503 });
    let payload: unknown;
    try {
      payload = await request.json();
    } catch (error) {
      const problem = `the body is not JSON (${(error as Error).message})`;
      options.logger.warn({ problem }, `telegram: ignored a webhook delivery it could not read: ${problem}`);
      return Response.json({ ok: false, error: "bad_request" }, { status: 400 });
    }
    if (albumKeyOf(payload) !== undefined) {
      const held = await options.albums.hold(payload).catch((error: unknown) => {
        options.logger.warn({ err: error }, "telegram: could not keep an album item; Telegram delivers it again");
        return undefined;
      });
      if (held === undefined) return Response.json({ ok: false, error: "not_committed" }, { status: 503 });
      if (held !== "too-large") return Response.json({ ok: true });
    }
    const chatId = chatOf(payload);
    if (chatId !== undefined) await options.albums.settled(chatId);
    const receipt = await options.receiver.receive(payload);
    if (!acknowledges(receipt)) return Response.json({ ok: false, error: "not_committed" }, { status: 503 });
    const isUpdate = typeof (payload as { update_id?: unknown } | null)?.update_id === "number";
    return isUpdate ? Response.json({ ok: true }) : Response.json({ ok: false, error: "bad_request" }, { status: 400 });
  };
}

/** Whether a delivery carries the configured secret (constant time: the answer time leaks nothing). */
export function secretMatches(given: string | null, expected: string): boolean {
  return given !== null && safeEqual(given, expected);
}
