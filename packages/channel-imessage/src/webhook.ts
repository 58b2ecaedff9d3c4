import { webhookAnswer } from "@chorus/channel-kit";
import type { HttpHandler, Logger } from "@chorus/core";
import type { IMessageReceiver } from "./receive.js";
import { presentedSecret, secretMatches } from "./secret.js";

export interface WebhookOptions {
  /** The per-install secret; resolved at start, before which every hook is refused. */
  secret(): string | undefined;
  /** False before `start()` and after `stop()`: the hook answers 503. */
  running(): boolean;
  receiver: IMessageReceiver;
  logger: Logger;
}

/**
 * The webhook BlueBubbles posts to (`{ type, data }`): check the secret (401 before the body is
 * read), then hand the body to the receiver. A body the plugin cannot read leaves the receiver's
 * warning naming what was wrong.
 */
export function createWebhookHandler(options: WebhookOptions): HttpHandler {
  const { logger } = options;
  return async (request) => {
    const secret = options.secret();
    if (secret === undefined || !secretMatches(secret, presentedSecret(request))) {
      logger.warn({ reason: "missing or wrong webhook secret" }, "imessage: refused a webhook");
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    if (!options.running()) {
      logger.info({}, "imessage: a webhook arrived while the channel is not running; answered 503");
      return Response.json({ error: "not_ready" }, { status: 503 });
    }
    // BlueBubbles never posts a webhook again whatever it hears: 200, 202 (kept, emitted again here), 400, 503.
    return webhookAnswer(await options.receiver.receive(await request.text()));
  };
}
