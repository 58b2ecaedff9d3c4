import type { InboundEvent, InboundMessageEvent } from "@chorus/core";
import type { Logger } from "pino";
import type { ResolvedAgent } from "../config/index.js";
import type { GatewayConfig } from "../config/schema.js";
import { sessionKeyFor, type TurnQueue } from "../sessions/index.js";
import type { EventDeduper, MessageIndex } from "../state/index.js";
import type { ChannelEntry } from "./channel-registry.js";
import type { TurnRunner } from "./turn.js";

export interface InboundRouterOptions {
  config: GatewayConfig;
  agentFor(entry: ChannelEntry): ResolvedAgent;
  index: MessageIndex;
  deduper: EventDeduper;
  queue: TurnQueue;
  turns: TurnRunner;
  logger: Logger;
}

/** Takes every event a channel emits: drops redeliveries, records refs, queues a turn per session. */
export class InboundRouter {
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(private readonly options: InboundRouterOptions) {}

  /** Turns queued or running right now. */
  get pending(): number {
    return this.#inFlight.size;
  }

  handle(entry: ChannelEntry, event: InboundEvent): void {
    const { deduper, index, logger } = this.options;
    const channel = entry.plugin.id;
    if (!deduper.firstTime(`${channel}:${entry.accountId}:${event.eventId}`)) {
      logger.debug({ channel, eventId: event.eventId }, "dropped a redelivered event");
      return;
    }
    if (event.type === "reaction") {
      index.put(event.target);
      logger.debug(
        { channel, from: event.conversation.id, actor: event.actor.id, emoji: event.emoji, action: event.action },
        "inbound reaction",
      );
      return;
    }
    index.put(event.ref);
    this.#queueTurn(entry, event);
  }

  #queueTurn(entry: ChannelEntry, event: InboundMessageEvent): void {
    const { config, queue, turns, logger } = this.options;
    const agent = this.options.agentFor(entry);
    const sessionKey = sessionKeyFor({
      agentId: agent.id,
      channel: entry.plugin.id,
      conversation: event.conversation,
      senderId: event.sender.id,
      dmScope: config.session.dmScope,
    });
    logger.debug(
      {
        channel: entry.plugin.id,
        from: event.conversation.id,
        sender: event.sender.id,
        sessionKey,
        chars: event.text.length,
      },
      "inbound message",
    );
    const turn = queue
      .run(sessionKey, (signal) => turns.run({ entry, event, agent, sessionKey, signal }))
      .catch((error: unknown) => {
        logger.error({ err: error, sessionKey }, "turn failed");
      })
      .finally(() => this.#inFlight.delete(turn));
    this.#inFlight.add(turn);
  }
}
