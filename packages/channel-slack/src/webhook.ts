import { hmacSha256Hex, safeEqual } from "@chorus/channel-kit";
import type { HttpHandler, Logger } from "@chorus/core";
import type { Receive } from "./receive.js";
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
  receive: Receive;
  logger: Logger;
}

/**
 * `POST /hooks/slack/<account>/events`, Slack's Request URL: verify the signature, answer the
 * `url_verification` challenge, and hand the body to the receiver, answering as it says within
 * Slack's 3 s: 200 once the gateway committed the event, 503 when it did not (Slack retries with
 * `X-Slack-Retry-Num`, keeping the event's ids). Nothing from an unverified request is parsed.
 */
export function createEventsHandler(endpoint: EventsEndpoint): HttpHandler {
  const { logger } = endpoint;
  // Slack delivers again later what was not answered 2xx, so nothing is lost while we restart or cannot commit.
  const later = (error: string) => Response.json({ error }, { status: 503 });
  return async (request) => {
    // The signature covers the exact bytes Slack sent: verify those, never a re-serialised copy.
    const raw = Buffer.from(await request.arrayBuffer());
    const refusal = verifySlackSignature(request.headers, raw, endpoint.signingSecret, Date.now());
    if (refusal) {
      logger.warn({ reason: refusal }, `slack: refused an Events API request: ${refusal}`);
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    const text = raw.toString("utf8");
    const payload = parsed(text);
    const challenge = urlVerificationSchema.safeParse(payload);
    if (challenge.success) return Response.json({ challenge: challenge.data.challenge });
    if (!endpoint.running()) return later("not_ready");
    const retry = request.headers.get("x-slack-retry-num");
    if (retry)
      logger.debug({ retry, reason: request.headers.get("x-slack-retry-reason") }, "slack: Slack retried a delivery");
    // What is not JSON goes as text: the receiver reports it (and it is acknowledged: the same bytes would not help).
    const acknowledged = await endpoint.receive(payload === undefined ? text : payload);
    return acknowledged ? Response.json({ ok: true }) : later("not_committed");
  };
}

/** The JSON in `text`, or undefined when it is none. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
