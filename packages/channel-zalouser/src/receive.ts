import { type BoundedMap, createReceiver, KeyedQueue } from "@chorus/channel-kit";
import type { InboundEvent, Logger, MessageRef, RefScope } from "@chorus/core";
import { type GroupMessage, type Reaction, ThreadType, type UserMessage } from "zca-js";
import type { ListenerSink } from "./connection.js";
import { normalizeMessage, normalizeReaction } from "./inbound.js";
import type { Threads } from "./threads.js";

/** One event from zca-js' listener. */
type ListenerEvent = { message: UserMessage | GroupMessage } | { reaction: Reaction };

export interface ReceiveDeps {
  logger: Logger;
  /** `ctx.emit`: resolves once the gateway committed the event. */
  emit(event: InboundEvent): Promise<void>;
  /** Stopping the channel lets go of events kept for another commit (logged). */
  signal: AbortSignal;
  /** Who the bot is while it is logged in. */
  scope(): RefScope;
  threads: Threads;
  /** Refs of messages received, by message id, for `resolveMessageRef`. */
  known: BoundedMap<string, MessageRef>;
}

/**
 * The one glue from zca-js' listener to `ctx.emit`, on the kit's receiver. The listener hands on
 * each message and reaction Zalo pushed over its WebSocket and sends nothing back (no ack frame),
 * and Zalo does not push an event again: one the gateway could not commit is kept and emitted
 * again until it is committed (`redelivery: "keep"`). The listener emits events in the order Zalo
 * pushed them (the connection decodes its frames one after another, `frame-order.ts`); normalising
 * waits for group info, so it runs one event after another per conversation: they reach the gateway
 * in the order Zalo sent them. What cannot be read is a warning naming the fields.
 */
export function createZaloReceive(deps: ReceiveDeps): ListenerSink {
  const { logger, threads, known } = deps;
  const inOrder = new KeyedQueue();
  const groupFacts = (groupId: string) =>
    threads.group(groupId).catch((error: unknown) => {
      logger.debug({ err: error }, `zalouser: no group info for ${groupId}: ${String(error)}`);
      return undefined;
    });

  const normalize = async (event: ListenerEvent): Promise<InboundEvent | undefined> => {
    if ("reaction" in event) {
      const { reaction } = event;
      const facts = reaction.isGroup ? await groupFacts(String(reaction.threadId)) : undefined;
      return normalizeReaction(reaction.data, reaction.isGroup, deps.scope(), facts);
    }
    const { message } = event;
    const group = message.type === ThreadType.Group;
    const id = String(message.threadId);
    await threads.learn(id, group ? "group" : "user");
    const normalized = normalizeMessage(
      message.data,
      group ? "group" : "user",
      deps.scope(),
      group ? await groupFacts(id) : undefined,
    );
    if (normalized) known.set(normalized.ref.messageId, normalized.ref);
    return normalized;
  };

  const receiver = createReceiver<ListenerEvent>({
    channel: "zalouser",
    logger,
    emit: (event) => deps.emit(event),
    normalize: (event) => {
      const thread = "reaction" in event ? event.reaction.threadId : event.message.threadId;
      return inOrder.run(String(thread), () => normalize(event));
    },
    redelivery: "keep",
    signal: deps.signal,
  });
  // The receipt has nothing to tell Zalo: the receiver has kept, committed or logged the event.
  return {
    message: (message) => void receiver.receive({ message }),
    reaction: (reaction) => void receiver.receive({ reaction }),
  };
}
