import { createReceiver, type Receipt } from "@chorus/channel-kit";
import { ChorusError, type InboundEvent, type Logger, type RefScope, type z } from "@chorus/core";
import type { BlueBubblesClient } from "./client.js";
import { normalizeMessage } from "./inbound.js";
import type { OwnMessages } from "./own-messages.js";
import { targetGuid } from "./vocabulary.js";
import { type BlueBubblesChat, type BlueBubblesMessage, messageSchema, webhookBodySchema } from "./wire.js";

/** What the receiver of one server (account) needs. */
export interface IMessageReceiverOptions {
  scope(): RefScope;
  own: OwnMessages;
  /** Asks the server about a message: whether it was the bot's, which chat it is in. */
  client: Pick<BlueBubblesClient, "getMessage">;
  /** `ctx.emit`: resolves once the gateway committed the event. */
  emit(event: InboundEvent): Promise<void>;
  logger: Logger;
  /** `ctx.signal`: events still kept when it aborts are let go (logged). */
  signal: AbortSignal;
}

/** The receiver of one server: a webhook body → `ctx.emit` → the answer BlueBubbles gets. */
export interface IMessageReceiver {
  /** Resolves once the body's event is committed (or there is none), or once it is kept to be emitted again. */
  receive(text: string): Promise<Receipt>;
}

/**
 * The glue from BlueBubbles' webhooks to `ctx.emit`, on the kit's receiver with
 * `redelivery: "keep"`: BlueBubbles never posts a webhook again. Its `WebhookService.dispatch`
 * (BlueBubblesApp/bluebubbles-server `packages/server/src/server/services/webhookService/index.ts`)
 * posts each event once with axios, does not await it, and on a failure only writes a debug line.
 * So an event whose commit failed is kept here and emitted again until it is committed; the
 * webhook is answered as soon as the event is kept. No deduplication here: a row posted again
 * carries the same GUID, so the same `eventId`, and the gateway drops the repeat.
 */
export function createIMessageReceiver(options: IMessageReceiverOptions): IMessageReceiver {
  const { logger } = options;
  const receiver = createReceiver<string>({
    channel: "imessage",
    logger,
    redelivery: "keep",
    // Answered once the event is committed or kept: the platform waits for no more, and never posts again.
    settleWhenKept: true,
    signal: options.signal,
    emit: options.emit,
    normalize: (delivery) => normalizeDelivery(delivery, options),
  });
  return { receive: (delivery) => receiver.receive(delivery) };
}

/**
 * A webhook body (`{ type, data }`) → its event: a `new-message` row of someone else's; none for
 * the bot's own rows, `updated-message` and other event types. Throws, naming what is wrong, for
 * a body or row it cannot read.
 */
async function normalizeDelivery(text: string, options: IMessageReceiverOptions): Promise<InboundEvent | undefined> {
  const { logger } = options;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new Error(`the body is not JSON (${(error as Error).message}): ${JSON.stringify(text.slice(0, 80))}`);
  }
  const hook = webhookBodySchema.safeParse(body);
  if (!hook.success) throw new Error(`not a BlueBubbles event: ${issues(hook.error)}`);
  const { type, data } = hook.data;
  if (type !== "new-message" && type !== "updated-message") {
    logger.debug({ type }, `imessage: a ${type} webhook is not an event for the agent`);
    return undefined;
  }
  const parsed = messageSchema.safeParse(data);
  if (!parsed.success) throw new Error(`the message of a ${type} webhook: ${issues(parsed.error, "data")}`);
  const message = parsed.data;
  if (type === "updated-message") {
    // A row changed after its new-message (delivered, read, edited, unsent); BlueBubbles sends
    // it without chats. Edits and unsends are not events yet (README, known limits).
    logger.debug({ guid: message.guid, change: changeOf(message) }, "imessage: an updated-message is not an event");
    return undefined;
  }
  if (message.isFromMe) {
    // The bot's own account: never an event, but replies to it are replies to the bot.
    await forNow("remember the bot's own message", () => options.own.add(message.guid));
    logger.debug({ guid: message.guid }, "imessage: the bot's own message (its echo) is not an event");
    return undefined;
  }
  const chat = message.chats?.[0] ?? (await chatFromServer(message.guid, options));
  if (!chat) throw new Error(`new-message ${message.guid} names no chat, and the server could not say which`);
  const own = await ownGuids(message, options);
  const result = normalizeMessage(message, chat, { scope: options.scope(), isOwn: (g) => own.has(g), now: Date.now() });
  if ("problem" in result) throw new Error(result.problem);
  if ("ignored" in result) {
    logger.debug({ guid: message.guid }, `imessage: ${result.ignored}`);
    return undefined;
  }
  return result.event;
}

/**
 * The bot's GUIDs among those a row points at: a tapback's target as the record knows it (the
 * gateway's index completes it), a replied-to message also asked of the server when unknown.
 */
async function ownGuids(message: BlueBubblesMessage, options: IMessageReceiverOptions): Promise<Set<string>> {
  const own = new Set<string>();
  const tapped = message.associatedMessageGuid ? targetGuid(message.associatedMessageGuid).guid : undefined;
  if (tapped && (await forNow("look up the bot's messages", () => options.own.has(tapped)))) own.add(tapped);
  const replied = message.threadOriginatorGuid ? targetGuid(message.threadOriginatorGuid).guid : undefined;
  if (replied && (await repliedToBot(replied, options))) own.add(replied);
  return own;
}

async function repliedToBot(guid: string, options: IMessageReceiverOptions): Promise<boolean> {
  if (await forNow("look up the bot's messages", () => options.own.has(guid))) return true;
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
async function chatFromServer(guid: string, options: IMessageReceiverOptions): Promise<BlueBubblesChat | undefined> {
  try {
    const stored = messageSchema.safeParse(await options.client.getMessage(guid, { withChats: true }));
    return stored.success ? stored.data.chats?.[0] : undefined;
  } catch (error) {
    options.logger.debug({ guid, error: (error as Error).message }, "imessage: could not look up a message's chat");
    return undefined;
  }
}

/** Runs a store call; its failure is one for now (retryable), not a body the plugin cannot read. */
async function forNow<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new ChorusError("E_PLATFORM", `could not ${what}: ${(error as Error).message}`, {
      retryable: true,
      cause: error,
    });
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
