import { safeEqual } from "@chorus/channel-kit";
import { type HttpHandler, isChorusError, type Logger } from "@chorus/core";
import type * as lark from "@larksuiteoapi/node-sdk";
import type { FeishuConfig } from "./config.js";
import { decryptEvent, signatureProblem } from "./crypto.js";

/** The path, below `/hooks/feishu`, Feishu delivers an account's events to. */
export const webhookPath = (accountId: string) => `/${encodeURIComponent(accountId)}/events`;

/** A delivery after decryption: an event (schema 2.0 or 1.0) or the URL check. */
interface Delivery {
  type?: unknown;
  token?: unknown;
  challenge?: unknown;
  encrypt?: unknown;
  header?: { token?: unknown };
}

/**
 * `POST /hooks/feishu/<account>/events` in webhook mode. In order: decrypt (with an Encrypt Key),
 * answer Feishu's `url_verification` challenge (its token checked), check `X-Lark-Signature` over
 * the exact bytes received (with an Encrypt Key) and the Verification Token, then hand the event
 * to the receiver (`receive.ts`, through the SDK's dispatcher) and answer as it says: 200 once the
 * gateway committed the event, 503 when it did not, and Feishu pushes it again (after 15 s, 5
 * min, 1 h and 6 h). Anything forged, or signed or tokened wrongly, is answered 401 and nothing
 * of it is processed; why goes to our log, not to the caller. `events` is the receiver while the
 * instance runs.
 */
export function createWebhookHandler(
  config: FeishuConfig,
  events: () => lark.EventDispatcher | undefined,
  logger: Logger,
): HttpHandler {
  const later = (error: string) => Response.json({ error }, { status: 503, headers: { "retry-after": "5" } });
  const refuse = (reason: string, status = 401) => {
    logger.warn({ reason }, `feishu: refused a webhook delivery: ${reason}`);
    return Response.json({ error: status === 401 ? "unauthorized" : "bad request" }, { status });
  };
  return async (request) => {
    const raw = Buffer.from(await request.arrayBuffer());
    let delivery: Delivery;
    try {
      delivery = parseObject(raw.toString("utf8"));
      if (typeof delivery.encrypt === "string") {
        if (config.encryptKey === undefined)
          return refuse("an encrypted delivery arrived but no encryptKey is configured");
        const plaintext = decryptEvent(config.encryptKey, delivery.encrypt);
        // Another key's ciphertext decrypts with valid padding about once in 256 tries: garbage, not a bad body.
        try {
          delivery = parseObject(plaintext);
        } catch {
          return refuse("encrypted delivery does not decrypt with the configured encryptKey");
        }
      }
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      return isChorusError(error) ? refuse(problem) : refuse(`the body is not a JSON object (${problem})`, 400);
    }
    const token = delivery.type === "url_verification" ? delivery.token : (delivery.header?.token ?? delivery.token);
    // Feishu's check of the URL: its challenge is answered only to whoever knows the token.
    if (delivery.type === "url_verification") {
      if (!tokenMatches(token, config)) return refuse("url_verification with a wrong verification token");
      return Response.json({ challenge: delivery.challenge });
    }
    if (config.encryptKey !== undefined) {
      const problem = signatureProblem(request.headers, config.encryptKey, raw);
      if (problem) return refuse(problem);
    }
    if (!tokenMatches(token, config)) return refuse("wrong or missing verification token");
    const receive = events();
    // Feishu delivers again later what was not answered 200, so nothing is lost while we restart or cannot commit.
    if (!receive) return later("not_ready");
    try {
      await receive.invoke(delivery, { needCheck: false });
    } catch {
      // Not committed (the receiver said why in the log): Feishu pushes it again.
      return later("not_committed");
    }
    return Response.json({});
  };
}

function tokenMatches(token: unknown, config: FeishuConfig): boolean {
  return (
    typeof token === "string" && config.verificationToken !== undefined && safeEqual(token, config.verificationToken)
  );
}

function parseObject(text: string): Delivery {
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new SyntaxError("not an object");
  return value as Delivery;
}
