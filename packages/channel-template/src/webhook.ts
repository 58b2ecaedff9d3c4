import { hmacSha256Hex, safeEqual } from "@chorus/channel-kit";
import { type ChannelContext, type HttpHandler, isChorusError, type Logger, type RefScope } from "@chorus/core";
import type { AcmeConfig } from "./config.js";
import { normalizeDelivery } from "./inbound.js";

/** How far a delivery's timestamp may be from now: a captured request cannot be replayed later. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60_000;

/**
 * The `POST /webhook` handler: verify, then normalise and emit. Nothing from an unverified request
 * is parsed or emitted, and why it was refused goes to our log, not to the caller. `scope` is who
 * the bot is while the instance runs: undefined before `start()` and after `stop()`.
 */
export function createWebhookHandler(
  ctx: ChannelContext<AcmeConfig>,
  scope: () => RefScope | undefined,
  logger: Logger,
): HttpHandler {
  return async (request) => {
    // The signature covers the exact bytes Acme sent: verify those, never a re-serialised copy.
    const raw = Buffer.from(await request.arrayBuffer());
    const refusal = verifyWebhook(request.headers, raw, ctx.config.webhookSecret, Date.now());
    if (refusal) {
      logger.warn({ reason: refusal }, `acme: refused a webhook delivery: ${refusal}`);
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    const bot = scope();
    // Acme delivers again later what was answered 503, so nothing is lost while we restart.
    if (!bot) return Response.json({ error: "not_ready" }, { status: 503, headers: { "retry-after": "5" } });
    try {
      const event = normalizeDelivery(JSON.parse(raw.toString("utf8")), bot);
      // Answered after the gateway committed the event: a crash before leaves it with Acme, which delivers it again.
      if (event) await ctx.emit(event);
    } catch (error) {
      if (!(error instanceof SyntaxError || isChorusError(error))) throw error;
      // An error answer would only make Acme send the same bytes again: acknowledge, but leave a trace.
      logger.warn({ problem: error.message }, `acme: skipped a delivery it cannot read: ${error.message}`);
    }
    return Response.json({ ok: true });
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
