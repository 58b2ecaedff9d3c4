import type { Receipt } from "@chorus/channel-kit";
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
 * The answer BlueBubbles gets. It never posts a webhook again whatever it hears (a failure is a
 * debug line in its log): a committed or ignored event is answered 200, one kept to be emitted
 * again 202, a body the plugin cannot read 400, one given up on 503.
 */
const ANSWERS: Record<Receipt, () => Response> = {
  committed: () => Response.json({ ok: true }),
  ignored: () => Response.json({ ok: true }),
  kept: () => Response.json({ ok: true }, { status: 202 }),
  unreadable: () => Response.json({ error: "unreadable payload" }, { status: 400 }),
  "not-committed": () => Response.json({ error: "not_committed" }, { status: 503 }),
};

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
    return ANSWERS[await options.receiver.receive(await request.text())]();
  };
}
