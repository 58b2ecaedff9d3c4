import type { InboundEvent, InboundMessageEvent, InboundReactionEvent } from "@chorus/core";
import type { Logger } from "pino";
import { isNamedOwner } from "../access/allowlist.js";
import type { MessageToolCalls } from "../channels/message-tool.js";
import type { ChannelEntry, ChannelRegistry } from "../channels/registry.js";
import { summariseTranscript } from "../commands/compact.js";
import type { ResolvedAgent } from "../config/agents.js";
import type { GatewayConfig } from "../config/schema.js";
import { fromLine } from "../groups/history.js";
import { ReactionNotifier } from "../reaction-notifications/notifier.js";
import type { AgentSessions } from "../sessions/agent-sessions.js";
import { sessionKeyFor } from "../sessions/keys.js";
import type { InboxRow, MessageIndex, Sql } from "../state/index.js";
import type { ReplyDraft, TurnCommitter } from "../turn/commit.js";
import type { TurnRunner } from "../turn/run.js";
import type { Dispatcher, StepContext } from "./dispatcher.js";
import { type MessageGate, sessionInit } from "./gate.js";
import { InFlight } from "./in-flight.js";
import type { InboxWriter } from "./inbox.js";

export interface InboundRouterOptions {
  config: GatewayConfig;
  agentFor(entry: ChannelEntry): ResolvedAgent;
  sessionsOf(agentId: string): Promise<AgentSessions>;
  index: MessageIndex;
  inbox: InboxWriter;
  registry: ChannelRegistry;
  committer: TurnCommitter;
  /** The fencing check of an account that runs under a lease. */
  fenceOf(channel: string, account: string): ((sql: Sql) => Promise<void>) | undefined;
  gate: MessageGate;
  turns: TurnRunner;
  tools: MessageToolCalls;
  systemEvents: { add(sessionKey: string, text: string): Promise<void> };
  logger: Logger;
  /**
   * Several gateways share the database (PostgreSQL): a session's entry is read again before a
   * step, since another gateway may have run its last turn. On SQLite this gateway is the only
   * writer of its sessions, and the entry it holds is the committed one.
   */
  shared: boolean;
}

/**
 * Takes every event a channel emits: commits it to the durable inbox (a redelivery is
 * recognised there) before the channel may acknowledge it; then wakes the session, whose turns
 * the `Dispatcher` takes from the inbox in order. Per message, the gate (`gate.ts`) decides
 * before an agent turn runs; whatever the message leaves (a reply, a turn) is committed with
 * marking its row done. Reactions go to the `ReactionNotifier`.
 */
export class InboundRouter {
  readonly #reactions: ReactionNotifier;
  readonly #reactionsInFlight = new InFlight();
  dispatcher: Dispatcher | undefined;

  constructor(private readonly options: InboundRouterOptions) {
    this.#reactions = new ReactionNotifier(options);
  }

  /** Commits an event; resolves once it is committed (the channel may then acknowledge it). */
  async accept(entry: ChannelEntry, event: InboundEvent): Promise<void> {
    const { logger } = this.options;
    const channel = entry.plugin.id;
    const conversation = conversationKey(channel, entry.accountId, event.conversation.id);
    // What an event starts, starts once its row is readable; the channel's acknowledgement waits for the disk.
    if (event.type === "reaction") {
      const id = await this.options.inbox.accept(channel, entry.accountId, event, null, (committed) => {
        if (committed !== undefined) this.#reactionsInFlight.track(conversation, this.#loose(entry, event, committed));
      });
      if (id === undefined) this.#redelivered(channel, event.eventId);
      return;
    }
    const agent = this.options.agentFor(entry);
    const sessionKey = this.#sessionKey(entry, event, agent);
    const id = await this.options.inbox.accept(channel, entry.accountId, event, sessionKey, (committed) => {
      // A reaction received before this message is a note of the turn it starts: handled first.
      if (committed !== undefined) this.#reactionsInFlight.after(conversation, () => this.dispatcher?.wake(sessionKey));
    });
    if (id === undefined) return this.#redelivered(channel, event.eventId);
    const from =
      event.conversation.kind === "group"
        ? fromLine({ name: event.sender.name ?? event.sender.id, e164: event.sender.e164 })
        : undefined;
    logger.debug(
      { channel, from: event.conversation.id, sender: event.sender.id, sessionKey, ...(from ? { suffix: from } : {}) },
      "inbound message",
    );
  }

  /**
   * Handles a committed message row (the `Dispatcher` calls it, in order per session); resolves
   * true when its commit was only started, added to `step.commits` (kept as context, no reply).
   */
  async process(row: InboxRow, signal: AbortSignal, step: StepContext): Promise<boolean> {
    const entry = this.options.registry.get(row.channel, row.account);
    const event = row.event as InboundMessageEvent;
    const agent = this.options.agentFor(entry);
    const sessionKey = row.sessionKey ?? this.#sessionKey(entry, event, agent);
    return this.#message(entry, event, agent, sessionKey, signal, { id: row.id, receivedAt: row.receivedAt }, step);
  }

  /** Handles a committed reaction row left by a crash (the `Dispatcher` claimed it). */
  async processLoose(row: InboxRow): Promise<void> {
    const entry = this.options.registry.get(row.channel, row.account);
    await this.#reactions.handle(entry, row.event as InboundReactionEvent);
  }

  #redelivered(channel: string, eventId: string): void {
    this.options.logger.debug({ channel, eventId }, "dropped a redelivered event");
  }

  async #loose(entry: ChannelEntry, event: InboundReactionEvent, id: number): Promise<void> {
    const { logger } = this.options;
    try {
      await this.#reactions.handle(entry, event);
    } catch (error) {
      logger.error({ err: error, channel: entry.plugin.id }, "reaction handling failed");
    }
    await this.options.committer
      .commit({ sessionKey: "", inboxId: id, sessions: [], replies: [] })
      .catch((error: unknown) => logger.warn({ err: error }, "could not mark a reaction handled"));
  }

  async #message(
    entry: ChannelEntry,
    received: InboundMessageEvent,
    agent: ResolvedAgent,
    sessionKey: string,
    signal: AbortSignal,
    row: { id: number; receivedAt: number },
    step: StepContext,
  ): Promise<boolean> {
    const { gate, turns, logger } = this.options;
    const inboxId = row.id;
    const event = await this.#withReplyFromIndex(entry, received);
    const { store, transcripts } = await this.options.sessionsOf(agent.id);
    // Another gateway may have run this session's last turn: start from what is committed.
    if (this.options.shared && !step.fresh) await store.refresh(sessionKey);
    const fence = this.options.fenceOf(entry.plugin.id, entry.accountId);
    const earlier = () => step.commits.settled();
    /**
     * Commits what the message left. Leaving no reply and no session change, its commit is only
     * started, added to the step's (true); otherwise it waits for the earlier ones, then commits,
     * so a session entry is never overwritten by an older one committed later.
     */
    const finish = async (
      reply?: string,
      more: { buffered?: boolean; also?: (sql: Sql) => Promise<void> } = {},
    ): Promise<boolean> => {
      const replies: ReplyDraft[] = reply === undefined ? [] : [this.#draft(entry, event, reply)];
      const sessions = store.takeChanges(sessionKey);
      const completion = { sessionKey, inboxId, ...more, sessions, replies, ...(fence ? { fence } : {}) };
      if (replies.length === 0 && sessions.length === 0) {
        step.commits.add(this.options.committer.commit(completion));
        return true;
      }
      await earlier();
      await this.options.committer.deliver(await this.options.committer.commit(completion));
      return false;
    };
    const decision = await gate.decide({
      entry,
      event,
      agent,
      sessionKey,
      inboxId,
      bot: entry.supervisor.instance?.identity?.(),
      store,
      transcripts,
      summarise: (entries) => summariseTranscript(agent, entries, signal),
      earlier,
    });
    const context = { channel: entry.plugin.id, from: event.conversation.id, sender: event.sender.id, sessionKey };
    switch (decision.kind) {
      case "blocked":
        logger.debug({ ...context, reason: decision.reason }, "blocked inbound message");
        return finish(decision.reply);
      case "command":
        return finish(decision.reply);
      case "buffered":
        logger.debug({ ...context, reason: decision.reason }, "buffered group message as context");
        return finish(undefined, { buffered: true });
      case "echo":
        logger.debug(context, "skipped a repeated batch (echo suppression)");
        return finish(undefined, decision.settle ? { also: decision.settle } : {});
      case "run":
        await earlier();
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
          ...(decision.settle ? { also: decision.settle } : {}),
          signal,
          inboxId,
          receivedAt: row.receivedAt,
          ...(fence ? { fence } : {}),
        });
        return false;
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

  /** A reply of the gateway itself (a command's answer, a pairing code) as an outbox row. */
  #draft(entry: ChannelEntry, event: InboundMessageEvent, text: string): ReplyDraft {
    const conversation = event.conversation;
    return {
      text,
      scope: {
        channel: entry.plugin.id,
        accountId: entry.accountId,
        conversation: { id: conversation.id, ...(conversation.threadId ? { threadId: conversation.threadId } : {}) },
        message: event.ref,
      },
      ...(conversation.kind === "group" ? { replyTo: event.ref.messageId } : {}),
    };
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

function conversationKey(channel: string, account: string, conversationId: string): string {
  return `${channel}\u0000${account}\u0000${conversationId}`;
}
