import type { HttpHandler, InboundEvent, Logger } from "@chorus/core";
import { type Identity, toInboundEvent } from "./normalize.js";
import { presentedSecret, secretMatches } from "./secret.js";
import type { OwnMessages } from "./stores.js";
import { targetGuid } from "./vocabulary.js";
import { type BlueBubblesMessage, messageSchema, webhookBodySchema } from "./wire.js";

/** Event ids remembered for redelivery checks; bounded. */
const REMEMBERED = 5_000;

export interface WebhookOptions {
  /** The per-install secret; resolved at start, before which every hook is refused. */
  secret(): string | undefined;
  who: Identity;
  own: OwnMessages;
  /** Asks the server whether a message the store does not know was the bot's (`isFromMe`). */
  fetchMessage(guid: string): Promise<BlueBubblesMessage | undefined>;
  /** False before `start()` and after `stop()`: the hook answers 503. */
  running(): boolean;
  emit(event: InboundEvent): void;
  logger: Logger;
}

/**
 * The webhook handler: check the secret, then parse, deduplicate, normalise and emit. A request
 * without the right secret is answered 401 before its body is read.
 */
export function createWebhookHandler(options: WebhookOptions): HttpHandler {
  const seen = new BoundedSet(REMEMBERED);
  return async (request) => {
    const secret = options.secret();
    if (secret === undefined || !secretMatches(secret, presentedSecret(request))) {
      options.logger.warn({ reason: "missing or wrong webhook secret" }, "imessage: refused a webhook");
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    if (!options.running()) return Response.json({ error: "not_ready" }, { status: 503 });
    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch {
      return Response.json({ error: "bad_request" }, { status: 400 });
    }
    const hook = webhookBodySchema.safeParse(body);
    if (!hook.success) return Response.json({ error: "bad_request" }, { status: 400 });
    const { type } = hook.data;
    if (type !== "new-message" && type !== "updated-message") return Response.json({ ok: true });
    const parsed = messageSchema.safeParse(hook.data.data);
    if (!parsed.success) {
      options.logger.warn({ type }, "imessage: ignored a webhook whose message could not be read");
      return Response.json({ ok: true });
    }
    const message = parsed.data;
    if (message.isFromMe) {
      // The bot's own account: never an event, but replies and tapbacks to it are to the bot.
      await options.own.add(message.guid);
      return Response.json({ ok: true });
    }
    // `updated-message` also reports delivery, read and edit updates: only tapbacks count there.
    if (type === "updated-message" && !message.associatedMessageGuid) return Response.json({ ok: true });
    await learnOwnership(message, options);
    const event = toInboundEvent(message, { who: options.who, isOwn: (g) => options.own.has(g), now: Date.now() });
    if (event && !seen.has(event.eventId)) {
      seen.add(event.eventId);
      options.emit(event);
    }
    return Response.json({ ok: true });
  };
}

/** Asks the server about a replied-to or tapped message the record does not know. */
async function learnOwnership(message: BlueBubblesMessage, options: WebhookOptions): Promise<void> {
  const pointer = message.threadOriginatorGuid ?? message.associatedMessageGuid;
  if (!pointer) return;
  const { guid } = targetGuid(pointer);
  if (options.own.has(guid)) return;
  try {
    const original = await options.fetchMessage(guid);
    if (original?.isFromMe) await options.own.add(guid);
  } catch (error) {
    options.logger.debug({ guid, error: (error as Error).message }, "imessage: could not look up a message");
  }
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
