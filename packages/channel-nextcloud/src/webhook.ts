import { BoundedSet, webhookAnswer } from "@chorus/channel-kit";
import type { HttpHandler, Logger } from "@chorus/core";
import type { NextcloudReceiver } from "./receive.js";
import { MIN_RANDOM_LENGTH, normalizeServerUrl, signatureMatches } from "./signing.js";

/** Randoms remembered for the replay check; bounded. */
const REMEMBERED_RANDOMS = 5_000;

/** What the webhook handler of one account needs. */
export interface WebhookOptions {
  secret: string;
  /** The configured server; `X-Nextcloud-Talk-Backend` must name it. */
  baseUrl: string;
  /** False before `start()` and after `stop()`: the hook answers 503. */
  running(): boolean;
  receiver: NextcloudReceiver;
  logger: Logger;
}

/**
 * The webhook transport: verify (signature, backend, replay), then hand the body to the
 * receiver. Nothing from a request that fails verification is parsed, logged as content or
 * emitted; a verified body the plugin cannot read leaves the receiver's warning naming what was
 * wrong.
 */
export function createWebhookHandler(options: WebhookOptions): HttpHandler {
  // Security, not deduplication: Talk's hooks carry no timestamp, so a captured delivery (with a
  // valid signature) could be posted again at any time, and only its random gives it away. Talk
  // itself signs every delivery with a fresh random; its redeliveries are recognised by their
  // stable eventId, which the gateway deduplicates.
  const randoms = new BoundedSet<string>(REMEMBERED_RANDOMS);
  const backend = normalizeServerUrl(options.baseUrl);
  const { logger } = options;
  return async (request) => {
    // The signature covers the exact bytes Talk sent: verify those, never a re-serialized copy.
    const raw = new Uint8Array(await request.arrayBuffer());
    const random = request.headers.get("x-nextcloud-talk-random") ?? "";
    const reason =
      verifyWebhook(request.headers, raw, options.secret, backend) ??
      (randoms.has(random) ? "replayed X-Nextcloud-Talk-Random" : undefined);
    if (reason) {
      logger.warn({ reason }, `nextcloud: refused a webhook (${reason})`);
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    if (!options.running()) return Response.json({ error: "not_ready" }, { status: 503 });
    randoms.add(random);
    // Talk takes 200 and 202 for success and retries nothing (`BotService::sendAsyncRequest`); a 400
    // counts as a bot error, which its admin sees.
    return webhookAnswer(await options.receiver.receive(raw));
  };
}

/** Why a delivery is not from the configured Talk server (missing, forged, foreign), or undefined. */
export function verifyWebhook(headers: Headers, raw: Uint8Array, secret: string, backend: string): string | undefined {
  const random = headers.get("x-nextcloud-talk-random");
  if (!random || random.length < MIN_RANDOM_LENGTH) return "missing or short X-Nextcloud-Talk-Random";
  const signature = headers.get("x-nextcloud-talk-signature");
  if (!signature) return "missing X-Nextcloud-Talk-Signature";
  if (!signatureMatches(secret, random, raw, signature)) return "signature does not match";
  const from = headers.get("x-nextcloud-talk-backend");
  if (!from || normalizeServerUrl(from) !== backend) return "X-Nextcloud-Talk-Backend is not the configured baseUrl";
  return undefined;
}
