import type { HttpHandler, InboundEvent, Logger, RefScope } from "@chorus/core";
import type { z } from "zod";
import type { BlueBubblesClient } from "./client.js";
import { normalizeMessage } from "./inbound.js";
import type { OwnMessages } from "./own-messages.js";
import { presentedSecret, secretMatches } from "./secret.js";
import { targetGuid } from "./vocabulary.js";
import { type BlueBubblesChat, type BlueBubblesMessage, messageSchema, webhookBodySchema } from "./wire.js";

export interface WebhookOptions {
  /** The per-install secret; resolved at start, before which every hook is refused. */
  secret(): string | undefined;
  scope(): RefScope;
  own: OwnMessages;
  /** Asks the server about a message: whether it was the bot's, which chat it is in. */
  client: Pick<BlueBubblesClient, "getMessage">;
  /** False before `start()` and after `stop()`: the hook answers 503. */
  running(): boolean;
  /** Resolves once the gateway committed the event: the webhook is answered after it. */
  emit(event: InboundEvent): Promise<void>;
  logger: Logger;
}

const ok = () => Response.json({ ok: true });

/**
 * The webhook BlueBubbles posts to (`{ type, data }`): check the secret (401 before the body is
 * read), parse, then turn a `new-message` into an event. No deduplication here: a redelivered
 * row carries the same GUID, so the same `eventId`, and the gateway drops the repeat. A body the
 * plugin cannot read is answered 400 with a warning naming what was wrong.
 */
export function createWebhookHandler(options: WebhookOptions): HttpHandler {
  const { logger } = options;
  const unreadable = (problem: string) => {
    logger.warn({ problem }, `imessage: could not read a webhook from BlueBubbles: ${problem}`);
    return Response.json({ error: "unreadable payload" }, { status: 400 });
  };
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
    const text = await request.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return unreadable(`the body is not JSON (${(error as Error).message}): ${JSON.stringify(text.slice(0, 80))}`);
    }
    const hook = webhookBodySchema.safeParse(body);
    if (!hook.success) return unreadable(`not a BlueBubbles event: ${issues(hook.error)}`);
    const { type, data } = hook.data;
    if (type !== "new-message" && type !== "updated-message") {
      logger.debug({ type }, `imessage: a ${type} webhook is not an event for the agent`);
      return ok();
    }
    const parsed = messageSchema.safeParse(data);
    if (!parsed.success) return unreadable(`the message of a ${type} webhook: ${issues(parsed.error, "data")}`);
    const message = parsed.data;
    if (type === "updated-message") {
      // A row changed after its new-message (delivered, read, edited, unsent); BlueBubbles sends
      // it without chats. Edits and unsends are not events yet (README, known limits).
      logger.debug({ guid: message.guid, change: changeOf(message) }, "imessage: an updated-message is not an event");
      return ok();
    }
    await onNewMessage(message, options);
    return ok();
  };
}

async function onNewMessage(message: BlueBubblesMessage, options: WebhookOptions): Promise<void> {
  const { logger } = options;
  if (message.isFromMe) {
    // The bot's own account: never an event, but replies to it are replies to the bot.
    await options.own.add(message.guid);
    logger.debug({ guid: message.guid }, "imessage: the bot's own message (its echo) is not an event");
    return;
  }
  const chat = message.chats?.[0] ?? (await chatFromServer(message.guid, options));
  if (!chat) {
    logger.warn(
      { guid: message.guid },
      `imessage: new-message ${message.guid} names no chat, and the server could not say which; it was not delivered to the agent`,
    );
    return;
  }
  const own = await ownGuids(message, options);
  const result = normalizeMessage(message, chat, { scope: options.scope(), isOwn: (g) => own.has(g), now: Date.now() });
  if ("event" in result) await options.emit(result.event);
  else if ("problem" in result) logger.warn({ guid: message.guid }, `imessage: ${result.problem}`);
  else logger.debug({ guid: message.guid }, `imessage: ${result.ignored}`);
}

/**
 * The bot's GUIDs among those a row points at: a tapback's target as the record knows it (the
 * gateway's index completes it), a replied-to message also asked of the server when unknown.
 */
async function ownGuids(message: BlueBubblesMessage, options: WebhookOptions): Promise<Set<string>> {
  const own = new Set<string>();
  const tapped = message.associatedMessageGuid ? targetGuid(message.associatedMessageGuid).guid : undefined;
  if (tapped && (await options.own.has(tapped))) own.add(tapped);
  const replied = message.threadOriginatorGuid ? targetGuid(message.threadOriginatorGuid).guid : undefined;
  if (replied && (await repliedToBot(replied, options))) own.add(replied);
  return own;
}

async function repliedToBot(guid: string, options: WebhookOptions): Promise<boolean> {
  if (await options.own.has(guid)) return true;
  try {
    const original = await options.client.getMessage(guid);
    if (original?.isFromMe !== true) return false;
    await options.own.add(guid);
    return true;
  } catch (error) {
    options.logger.debug({ guid, error: (error as Error).message }, "imessage: could not look up a replied-to message");
    return false;
  }
}

/** The chat of a row whose webhook carried none (the server had not joined it to its chat yet). */
async function chatFromServer(guid: string, options: WebhookOptions): Promise<BlueBubblesChat | undefined> {
  try {
    const stored = messageSchema.safeParse(await options.client.getMessage(guid, { withChats: true }));
    return stored.success ? stored.data.chats?.[0] : undefined;
  } catch (error) {
    options.logger.debug({ guid, error: (error as Error).message }, "imessage: could not look up a message's chat");
    return undefined;
  }
}

function changeOf(message: BlueBubblesMessage): string {
  if (message.dateRetracted) return "unsent";
  if (message.dateEdited) return "edited";
  return "delivery or read status";
}

function issues(error: z.ZodError, root?: string): string {
  return error.issues
    .map((issue) => `${[root, ...issue.path.map(String)].filter(Boolean).join(".") || "body"}: ${issue.message}`)
    .join("; ");
}
