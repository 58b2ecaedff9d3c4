import type { HttpHandler, InboundEvent, Logger } from "@chorus/core";
import type { IdentityStore } from "./identity.js";
import { toInboundEvent } from "./normalize.js";
import { MIN_RANDOM_LENGTH, normalizeServerUrl, signatureMatches } from "./signing.js";
import { talkMembershipSchema } from "./wire.js";

/** Randoms and event ids remembered for replay and redelivery checks; bounded. */
const REMEMBERED = 5_000;

export interface WebhookOptions {
  secret: string;
  /** The configured server; `X-Nextcloud-Talk-Backend` must name it. */
  baseUrl: string;
  directConversations: readonly string[];
  identity: IdentityStore;
  /** False before `start()` and after `stop()`: the hook answers 503. */
  running(): boolean;
  emit(event: InboundEvent): void;
  logger: Logger;
}

/**
 * The webhook handler: verify (signature, backend, replay), then parse, deduplicate, normalise
 * and emit. Nothing from a request that fails verification is parsed, logged as content or emitted.
 */
export function createWebhookHandler(options: WebhookOptions): HttpHandler {
  const randoms = new BoundedSet(REMEMBERED);
  const events = new BoundedSet(REMEMBERED);
  const backend = normalizeServerUrl(options.baseUrl);
  return async (request) => {
    // The signature covers the exact bytes Talk sent: verify those, never a re-serialised copy.
    const raw = Buffer.from(await request.arrayBuffer());
    const refusal = verifyWebhook(request.headers, raw, options.secret, backend);
    const random = request.headers.get("x-nextcloud-talk-random") ?? "";
    // Talk's hooks carry no timestamp: a captured delivery is recognised by its random instead.
    const reason = refusal ?? (randoms.has(random) ? "replayed X-Nextcloud-Talk-Random" : undefined);
    if (reason) {
      options.logger.warn({ reason }, "nextcloud: refused a webhook");
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    if (!options.running()) return Response.json({ error: "not_ready" }, { status: 503 });
    randoms.add(random);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return Response.json({ error: "bad_request" }, { status: 400 });
    }
    const membership = talkMembershipSchema.safeParse(body);
    if (membership.success) {
      const { type, actor, object } = membership.data;
      if (await options.identity.learn(actor.id, actor.name)) {
        options.logger.info({ botId: actor.id }, "nextcloud: learned the bot's actor id from Talk");
      }
      options.logger.info(
        { conversation: object.id, title: object.name },
        `nextcloud: bot ${type === "Join" ? "added to" : "removed from"} a conversation`,
      );
      return Response.json({ ok: true });
    }
    const event = toInboundEvent(body, {
      who: options.identity.current(),
      directConversations: options.directConversations,
      random,
      now: Date.now(),
    });
    if (event && !events.has(event.eventId)) {
      events.add(event.eventId);
      options.emit(event);
    }
    // Unknown types (system messages) are acknowledged too: Talk counts non-2xx answers as bot errors.
    return Response.json({ ok: true });
  };
}

/** Why a delivery is not from the configured Talk server (missing, forged, foreign), or undefined. */
export function verifyWebhook(headers: Headers, raw: Buffer, secret: string, backend: string): string | undefined {
  const random = headers.get("x-nextcloud-talk-random");
  if (!random || random.length < MIN_RANDOM_LENGTH) return "missing or short X-Nextcloud-Talk-Random";
  const signature = headers.get("x-nextcloud-talk-signature");
  if (!signature) return "missing X-Nextcloud-Talk-Signature";
  if (!signatureMatches(secret, random, raw, signature)) return "signature does not match";
  const from = headers.get("x-nextcloud-talk-backend");
  if (!from || normalizeServerUrl(from) !== backend) return "X-Nextcloud-Talk-Backend is not the configured baseUrl";
  return undefined;
}

/** A set that forgets its oldest entries beyond `limit`. */
class BoundedSet {
  readonly #items = new Set<string>();
  constructor(private readonly limit: number) {}
  has(value: string): boolean {
    return this.#items.has(value);
  }
  add(value: string): void {
    this.#items.add(value);
    if (this.#items.size > this.limit) this.#items.delete(this.#items.values().next().value as string);
  }
}
