import type { InboundEvent, InboundMessageEvent } from "@chorus/core";
import type { Logger } from "pino";
import { isNamedOwner } from "../access/allowlist.js";
import type { MessageToolCalls } from "../channels/message-tool.js";
import type { ChannelEntry } from "../channels/registry.js";
import { summariseTranscript } from "../commands/compact.js";
import type { ResolvedAgent } from "../config/agents.js";
import type { GatewayConfig } from "../config/schema.js";
import { fromLine } from "../groups/history.js";
import { ReactionNotifier } from "../reaction-notifications/notifier.js";
import type { AgentSessions } from "../sessions/agent-sessions.js";
import { sessionKeyFor } from "../sessions/keys.js";
import type { TurnQueue } from "../sessions/queue.js";
import type { EventDeduper, MessageIndex } from "../state/index.js";
import type { TurnRunner } from "../turn/run.js";
import { type MessageGate, sessionInit } from "./gate.js";

export interface InboundRouterOptions {
  config: GatewayConfig;
  agentFor(entry: ChannelEntry): ResolvedAgent;
  sessionsOf(agentId: string): Promise<AgentSessions>;
  index: MessageIndex;
  deduper: EventDeduper;
  queue: TurnQueue;
  gate: MessageGate;
  turns: TurnRunner;
  tools: MessageToolCalls;
  systemEvents: { add(sessionKey: string, text: string): void };
  logger: Logger;
}

/**
 * Takes every event a channel emits: drops redeliveries; hands reactions to the
 * `ReactionNotifier`; records a message's ref and, per session (in order), has the gate
 * (`gate.ts`) decide before an agent turn runs.
 */
export class InboundRouter {
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #reactions: ReactionNotifier;

  constructor(private readonly options: InboundRouterOptions) {
    this.#reactions = new ReactionNotifier(options);
  }

  /** Messages queued or being handled right now. */
  get pending(): number {
    return this.#inFlight.size;
  }

  handle(entry: ChannelEntry, event: InboundEvent): void {
    const { deduper, index, logger } = this.options;
    if (!deduper.firstTime(`${entry.plugin.id}:${entry.accountId}:${event.eventId}`)) {
      logger.debug({ channel: entry.plugin.id, eventId: event.eventId }, "dropped a redelivered event");
      return;
    }
    if (event.type === "reaction") {
      const work = this.#reactions
        .handle(entry, event)
        .catch((error: unknown) => logger.error({ err: error, channel: entry.plugin.id }, "reaction handling failed"))
        .finally(() => this.#inFlight.delete(work));
      this.#inFlight.add(work);
      return;
    }
    index.put(event.ref);
    const agent = this.options.agentFor(entry);
    const sessionKey = this.#sessionKey(entry, event, agent);
    const from =
      event.conversation.kind === "group"
        ? fromLine({ name: event.sender.name ?? event.sender.id, e164: event.sender.e164 })
        : undefined;
    logger.debug(
      {
        channel: entry.plugin.id,
        from: event.conversation.id,
        sender: event.sender.id,
        sessionKey,
        ...(from ? { suffix: from } : {}),
      },
      "inbound message",
    );
    const work = this.options.queue
      .run(sessionKey, (signal) => this.#message(entry, event, agent, sessionKey, signal))
      .catch((error: unknown) => logger.error({ err: error, sessionKey }, "message handling failed"))
      .finally(() => this.#inFlight.delete(work));
    this.#inFlight.add(work);
  }

  async #message(
    entry: ChannelEntry,
    received: InboundMessageEvent,
    agent: ResolvedAgent,
    sessionKey: string,
    signal: AbortSignal,
  ): Promise<void> {
    const { gate, turns, logger } = this.options;
    const event = await this.#withReplyFromIndex(entry, received);
    const { store, transcripts } = await this.options.sessionsOf(agent.id);
    const decision = await gate.decide({
      entry,
      event,
      agent,
      sessionKey,
      bot: entry.supervisor.instance?.identity?.(),
      store,
      transcripts,
      summarise: (entries) => summariseTranscript(agent, entries, signal),
    });
    const context = { channel: entry.plugin.id, from: event.conversation.id, sender: event.sender.id, sessionKey };
    switch (decision.kind) {
      case "blocked":
        logger.debug({ ...context, reason: decision.reason }, "blocked inbound message");
        if (decision.reply) await this.#reply(entry, event, decision.reply);
        return;
      case "command":
        await this.#reply(entry, event, decision.reply);
        return;
      case "buffered":
        logger.debug({ ...context, reason: decision.reason }, "buffered group message as context");
        return;
      case "echo":
        logger.debug(context, "skipped a repeated batch (echo suppression)");
        return;
      case "run":
        await turns.run({
          entry,
          agent,
          sessionKey,
          init: sessionInit(entry, event, agent),
          conversation: event.conversation,
          trigger: { ref: event.ref, senderName: event.sender.name ?? event.sender.id, text: event.text },
          userText: decision.userText,
          mentioned: decision.mentioned,
          ...(decision.intro ? { intro: decision.intro } : {}),
          signal,
        });
    }
  }

  /**
   * A reply to a message the bot sent is a reply to the bot, also when the plugin cannot tell
   * (a platform that names only the replied-to id): the index knows every message the bot sent.
   */
  async #withReplyFromIndex(entry: ChannelEntry, event: InboundMessageEvent): Promise<InboundMessageEvent> {
    const reply = event.replyTo;
    if (!reply || reply.fromBot) return event;
    const known = await this.options.index.get({
      channel: entry.plugin.id,
      accountId: entry.accountId,
      conversationId: event.conversation.id,
      messageId: reply.messageId,
    });
    return known?.fromBot === true ? { ...event, replyTo: { ...reply, fromBot: true } } : event;
  }

  async #reply(entry: ChannelEntry, event: InboundMessageEvent, text: string): Promise<void> {
    const conversation = event.conversation;
    try {
      await this.options.tools.execute(
        {
          action: "send",
          text,
          ...(conversation.kind === "group" ? { replyTo: event.ref.messageId } : {}),
        },
        {
          channel: entry.plugin.id,
          accountId: entry.accountId,
          conversation: { id: conversation.id, ...(conversation.threadId ? { threadId: conversation.threadId } : {}) },
          message: event.ref,
        },
      );
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, "could not send a reply");
    }
  }

  #sessionKey(entry: ChannelEntry, event: InboundMessageEvent, agent: ResolvedAgent): string {
    return sessionKeyFor({
      agentId: agent.id,
      channel: entry.plugin.id,
      conversation: event.conversation,
      senderId: event.sender.id,
      dmScope: this.options.config.session.dmScope,
      owner: isNamedOwner(event.sender, entry.settings, entry.supervisor.instance?.identity?.()),
    });
  }
}
