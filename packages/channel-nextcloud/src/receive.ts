import { createReceiver, type Receipt } from "@chorus/channel-kit";
import { ChorusError, type InboundEvent, type Logger } from "@chorus/core";
import type { BotIdentity } from "./identity.js";
import { normalizeHook } from "./inbound.js";
import type { ReactionEventIds } from "./reaction-events.js";

/** What the receiver of one account needs. */
export interface NextcloudReceiverOptions {
  directConversations: readonly string[];
  /** `users/<files.user>`, when the bot has a files account: its messages are the bot's own. */
  filesActor?: string | undefined;
  identity: BotIdentity;
  reactionIds: ReactionEventIds;
  /** `ctx.emit`: resolves once the gateway committed the event. */
  emit(event: InboundEvent): Promise<void>;
  logger: Logger;
  /** `ctx.signal`: events still kept when it aborts are let go (logged). */
  signal: AbortSignal;
}

/** The receiver of one account: a verified webhook body → `ctx.emit` → the answer Talk gets. */
export interface NextcloudReceiver {
  /** Resolves once the body's event is committed (or there is none), or once it is kept to be emitted again. */
  receive(raw: Uint8Array): Promise<Receipt>;
}

/**
 * The glue from Talk's webhooks to `ctx.emit`, on the kit's receiver with `redelivery: "keep"`:
 * Talk never delivers a hook again. spreed's `BotService::sendAsyncRequest` (nextcloud/spreed
 * `lib/Service/BotService.php`) posts each hook once, with a 5 s timeout; an answer other than
 * 200 or 202, or none, only raises the bot's error count (`setErrorCount`, `setLastErrorMessage`).
 * So an event whose commit failed is kept here and emitted again until it is committed, and the
 * hook is answered as soon as the event is kept (202), within Talk's 5 s.
 */
export function createNextcloudReceiver(options: NextcloudReceiverOptions): NextcloudReceiver {
  const { identity, logger } = options;
  const receiver = createReceiver<Uint8Array>({
    channel: "nextcloud",
    logger,
    redelivery: "keep",
    // Answered once the event is committed or kept: the platform waits for no more, and never posts again.
    settleWhenKept: true,
    signal: options.signal,
    emit: options.emit,
    normalize: (delivery) => normalizeDelivery(delivery, options),
  });
  return { receive: (delivery) => receiver.receive(delivery) };

  /** The event of a verified body; undefined for one that is none; throws for a body it cannot read. */
  async function normalizeDelivery(raw: Uint8Array, context: NextcloudReceiverOptions) {
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(raw).toString("utf8"));
    } catch (error) {
      throw new Error(`a webhook from Talk: (body): not JSON (${(error as Error).message})`);
    }
    const hook = normalizeHook(body, {
      scope: identity.scope(),
      botName: identity.botName,
      directConversations: context.directConversations,
      filesActor: context.filesActor,
      now: Date.now(),
    });
    switch (hook.kind) {
      case "unreadable":
        throw new Error(`${describeHook(body)} from Talk: ${hook.problems.join("; ")}`);
      case "ignored":
        logger.debug({ reason: hook.reason }, `nextcloud: ignored ${hook.reason}`);
        return undefined;
      case "message":
        if (hook.problems.length > 0) {
          logger.warn(
            { eventId: hook.event.eventId, problems: hook.problems },
            `nextcloud: read a message only in part (${hook.problems.join("; ")}); its text is passed on as sent`,
          );
        }
        return hook.event;
      case "reaction": {
        const eventId = await forNow("find the reaction's event id", () => context.reactionIds.idFor(hook.occurrence));
        return { ...hook.event, eventId };
      }
      case "membership":
        if (await forNow("keep the bot's identity", () => identity.learn(hook.botId, hook.botName))) {
          logger.info({ botId: hook.botId }, "nextcloud: learned the bot's actor id from Talk");
        }
        logger.info(
          { conversation: hook.conversation.id, title: hook.conversation.name },
          `nextcloud: bot ${hook.type === "Join" ? "added to" : "removed from"} a conversation`,
        );
        return undefined;
    }
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

/** `a "Create" webhook`, or `a webhook` when the body names no type. */
function describeHook(body: unknown): string {
  const type = (body as { type?: unknown } | null)?.type;
  return typeof type === "string" ? `a ${JSON.stringify(type.slice(0, 40))} webhook` : "a webhook";
}
