import { createHmac, timingSafeEqual } from "node:crypto";
import type { Conversation, HttpHandler, InboundEvent, Logger, Participant } from "@chorus/core";
import { acmeMessageRef, type Identity } from "./ref.js";
import {
  type AcmeConversation,
  type AcmeUser,
  messageCreatedSchema,
  reactionChangedSchema,
  webhookEnvelopeSchema,
} from "./wire.js";

/** How old a delivery may be: older ones are refused, so a captured request cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;
/** Delivery ids remembered for deduplication; bounded so a long-running instance does not grow. */
const REMEMBERED_DELIVERIES = 2_000;

export interface WebhookOptions {
  webhookSecret: string;
  /** Who the bot is; undefined until `start()` has asked Acme. */
  identity(): Identity | undefined;
  emit(event: InboundEvent): void;
  logger: Logger;
}

/**
 * The `POST /webhook` handler: verify, then parse, then deduplicate, then normalise and emit.
 * The order matters: nothing from an unverified request is parsed, logged as content, or emitted.
 */
export function createWebhookHandler(options: WebhookOptions): HttpHandler {
  const seen = new Set<string>();
  return async (request) => {
    // The signature covers the exact bytes Acme sent: verify those, never a re-serialised copy.
    const raw = Buffer.from(await request.arrayBuffer());
    const refusal = verifyWebhook(request.headers, raw, options.webhookSecret, Date.now());
    if (refusal) {
      options.logger.warn({ reason: refusal }, "acme: refused a webhook");
      // The reason goes to our log, not to the caller: a forger learns nothing from the answer.
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    const envelope = webhookEnvelopeSchema.safeParse(parseJson(raw));
    if (!envelope.success) return Response.json({ error: "bad_request" }, { status: 400 });
    // The timestamp header is not signed, the body is: a replay with a fresh header fails here.
    if (String(envelope.data.timestamp) !== request.headers.get("x-acme-timestamp")) {
      options.logger.warn({ reason: "timestamp header differs from the signed body" }, "acme: refused a webhook");
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    const who = options.identity();
    // Not started (or stopped): a 503 makes Acme deliver again later instead of losing the event.
    if (!who) return Response.json({ error: "not_ready" }, { status: 503, headers: { "retry-after": "5" } });
    // Acme redelivers when our answer is slow or lost; the delivery id stays the same.
    if (seen.has(envelope.data.id)) return Response.json({ ok: true, duplicate: true });
    remember(seen, envelope.data.id);
    const event = toInboundEvent(envelope.data, who);
    if (event) options.emit(event);
    // Unknown event types are acknowledged too: a 4xx would make Acme retry them forever.
    return Response.json({ ok: true });
  };
}

/** Why a delivery is not from Acme (missing, forged or stale), or undefined when it is. */
export function verifyWebhook(headers: Headers, raw: Buffer, secret: string, nowMs: number): string | undefined {
  const timestamp = headers.get("x-acme-timestamp");
  const seconds = timestamp !== null && /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
  if (Number.isNaN(seconds)) return "missing or malformed X-Acme-Timestamp";
  // Both directions: a timestamp far in the future is as suspicious as an old one.
  if (Math.abs(nowMs / 1000 - seconds) > WEBHOOK_TOLERANCE_SECONDS) return "stale X-Acme-Timestamp";
  const signature = /^sha256=([0-9a-f]{64})$/i.exec(headers.get("x-acme-signature") ?? "");
  if (!signature) return "missing or malformed X-Acme-Signature";
  const expected = createHmac("sha256", secret).update(raw).digest();
  const given = Buffer.from(signature[1] as string, "hex");
  // Constant time: comparing with === leaks, byte by byte, how much of a guess was right.
  return timingSafeEqual(expected, given) ? undefined : "signature does not match";
}

/** Turns a verified delivery into a normalised event; undefined for the bot's own and unknown types. */
export function toInboundEvent(
  envelope: { id: string; type: string; timestamp: number; data: unknown },
  who: Identity,
): InboundEvent | undefined {
  if (envelope.type === "message.created") {
    const parsed = messageCreatedSchema.safeParse(envelope.data);
    if (!parsed.success) return undefined;
    const { message, conversation } = parsed.data;
    // Acme echoes the bot's own messages to its webhook; answering them would loop forever.
    if (message.author.id === who.botId) return undefined;
    const others = message.mentions.filter((id) => id !== who.botId);
    return {
      type: "message",
      eventId: envelope.id,
      conversation: normaliseConversation(conversation),
      sender: participant(message.author),
      text: message.text,
      mentions: { bot: message.mentions.includes(who.botId), others },
      ...(message.reply_to
        ? {
            replyTo: {
              messageId: message.reply_to.id,
              fromBot: message.reply_to.author_id === who.botId,
              senderId: message.reply_to.author_id,
              ...(message.reply_to.text !== undefined ? { text: message.reply_to.text } : {}),
            },
          }
        : {}),
      ref: acmeMessageRef({ id: message.id, conversationId: conversation.id, authorId: message.author.id }, who),
      timestamp: Date.parse(message.created_at),
    };
  }
  if (envelope.type === "reaction.added" || envelope.type === "reaction.removed") {
    const parsed = reactionChangedSchema.safeParse(envelope.data);
    if (!parsed.success) return undefined;
    const { conversation, message, user, emoji } = parsed.data;
    if (user.id === who.botId) return undefined;
    return {
      type: "reaction",
      eventId: envelope.id,
      conversation: normaliseConversation(conversation),
      target: acmeMessageRef({ id: message.id, conversationId: conversation.id, authorId: message.author_id }, who),
      emoji,
      action: envelope.type === "reaction.added" ? "added" : "removed",
      actor: participant(user),
      timestamp: envelope.timestamp * 1000,
    };
  }
  return undefined;
}

function normaliseConversation(conversation: AcmeConversation): Conversation {
  return {
    id: conversation.id,
    kind: conversation.type,
    ...(conversation.name !== undefined ? { title: conversation.name } : {}),
    ...(conversation.members ? { members: conversation.members.map(participant) } : {}),
  };
}

function participant(user: AcmeUser): Participant {
  return { id: user.id, name: user.name, ...(user.bot ? { isBot: true } : {}) };
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return undefined;
  }
}

function remember(seen: Set<string>, id: string): void {
  seen.add(id);
  // A Set iterates in insertion order, so the first entry is the oldest.
  if (seen.size > REMEMBERED_DELIVERIES) seen.delete(seen.values().next().value as string);
}
