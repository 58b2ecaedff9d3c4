import { acknowledges, hmacSha256Hex, type Receiver, safeEqual } from "@chorus/channel-kit";
import type { HttpHandler, Logger, RefScope } from "@chorus/core";
import type { AcmeDeliveryIn } from "./receive.js";

/** How far a delivery's timestamp may be from now: a captured request cannot be replayed later. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60_000;

/**
 * The `POST /webhook` handler: verify, then hand the delivery to the receiver and answer as it
 * says. Nothing from an unverified request is parsed or emitted, and why it was refused goes to
 * our log, not to the caller. `running` is who the bot is while the instance runs.
 */
export function createWebhookHandler(
  secret: string,
  running: () => RefScope | undefined,
  receiver: Receiver<AcmeDeliveryIn>,
  logger: Logger,
): HttpHandler {
  // Acme posts again later what was answered 5xx, so nothing is lost while we restart or cannot commit.
  const later = () => Response.json({ error: "not_committed" }, { status: 503, headers: { "retry-after": "5" } });
  return async (request) => {
    // The signature covers the exact bytes Acme sent: verify those, never a re-serialised copy.
    const raw = Buffer.from(await request.arrayBuffer());
    const refusal = verifyWebhook(request.headers, raw, secret, Date.now());
    if (refusal) {
      logger.warn({ reason: refusal }, `acme: refused a webhook delivery: ${refusal}`);
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    const bot = running();
    if (!bot) return later();
    // Answered 200 only once the gateway committed the event (or there was nothing to commit).
    return acknowledges(await receiver.receive({ raw, bot })) ? Response.json({ ok: true }) : later();
  };
}

/** Why a delivery is not from Acme (unsigned, forged or stale), or undefined when it is. */
export function verifyWebhook(headers: Headers, raw: Buffer, secret: string, nowMs: number): string | undefined {
  const timestamp = headers.get("x-acme-timestamp") ?? "";
  if (!/^\d{1,12}$/.test(timestamp)) return "missing or malformed X-Acme-Timestamp";
  // Both ways: a timestamp far in the future is as suspect as an old one.
  if (Math.abs(nowMs - Number(timestamp) * 1000) > WEBHOOK_TOLERANCE_MS) return "stale X-Acme-Timestamp";
  // Acme signs "<timestamp>.<body>": a replay that freshens the timestamp header breaks the signature.
  const signed = Buffer.concat([Buffer.from(`${timestamp}.`), raw]);
  const expected = `sha256=${hmacSha256Hex(secret, signed)}`;
  // Constant time: `===` would leak, byte by byte, how much of a guess was right.
  return safeEqual(expected, headers.get("x-acme-signature") ?? "") ? undefined : "signature does not match";
}
