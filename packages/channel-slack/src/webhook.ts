import { hmacSha256Hex, safeEqual } from "@chorus/channel-kit";
import type { HttpHandler, Logger } from "@chorus/core";
import { atMost, type Dispatch } from "./dispatch.js";
import { urlVerificationSchema } from "./wire.js";

/** How far a request's timestamp may be from now (Slack's own rule): a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** Why a request is not from Slack (unsigned, forged or stale), or undefined when it is. */
export function verifySlackSignature(headers: Headers, raw: Buffer, secret: string, nowMs: number): string | undefined {
  const timestamp = headers.get("x-slack-request-timestamp") ?? "";
  if (!/^\d{1,12}$/.test(timestamp)) return "missing or malformed X-Slack-Request-Timestamp";
  // Both ways: a timestamp far in the future is as suspect as an old one.
  if (Math.abs(nowMs - Number(timestamp) * 1000) > SIGNATURE_TOLERANCE_MS) return "stale X-Slack-Request-Timestamp";
  // v0: HMAC-SHA256 of "v0:<timestamp>:<raw body>": a replay with a fresh timestamp breaks it.
  const expected = `v0=${hmacSha256Hex(secret, Buffer.concat([Buffer.from(`v0:${timestamp}:`), raw]))}`;
  // Constant time: `===` would leak, byte by byte, how much of a guess was right.
  return safeEqual(expected, headers.get("x-slack-signature") ?? "") ? undefined : "signature does not match";
}

/** What the Events API endpoint needs from its account. */
export interface EventsEndpoint {
  signingSecret: string;
  /** Whether the instance runs: before start and after stop Slack is asked to deliver again. */
  running(): boolean;
  dispatch: Dispatch;
  logger: Logger;
}

/**
 * `POST /hooks/slack/<account>/events`, Slack's Request URL: verify the signature, answer the
 * `url_verification` challenge, and hand events to the dispatcher, answering within Slack's 3 s.
 * Nothing from an unverified request is parsed. Slack's retries (`X-Slack-Retry-Num`) keep the
 * event's ids, so the host drops the repeat.
 */
export function createEventsHandler(endpoint: EventsEndpoint): HttpHandler {
  const { logger } = endpoint;
  return async (request) => {
    // The signature covers the exact bytes Slack sent: verify those, never a re-serialised copy.
    const raw = Buffer.from(await request.arrayBuffer());
    const refusal = verifySlackSignature(request.headers, raw, endpoint.signingSecret, Date.now());
    if (refusal) {
      logger.warn({ reason: refusal }, `slack: refused an Events API request: ${refusal}`);
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString("utf8"));
    } catch (error) {
      // An error answer would only make Slack send the same bytes again: acknowledge, with a trace.
      logger.warn(
        { problem: (error as Error).message },
        `slack: skipped a request it cannot read: ${(error as Error).message}`,
      );
      return Response.json({ ok: true });
    }
    const challenge = urlVerificationSchema.safeParse(payload);
    if (challenge.success) return Response.json({ challenge: challenge.data.challenge });
    // Slack delivers again later what was not answered 200, so nothing is lost while we restart.
    if (!endpoint.running()) return Response.json({ error: "not_ready" }, { status: 503 });
    const retry = request.headers.get("x-slack-retry-num");
    if (retry)
      logger.debug({ retry, reason: request.headers.get("x-slack-retry-reason") }, "slack: Slack retried a delivery");
    await atMost(endpoint.dispatch(payload));
    return Response.json({ ok: true });
  };
}
