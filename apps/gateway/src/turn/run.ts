import {
  type Conversation,
  type ConversationAddress,
  type MessageRef,
  resolveReactionLevel,
  toChorusError,
} from "@chorus/core";
import type { Logger } from "pino";
import type { ModelFailures } from "../agent/failures.js";
import { runTurn } from "../agent/lazy-turn.js";
import type { TurnResult } from "../agent/types.js";
import type { MessageToolCalls, TurnScope } from "../channels/message-tool.js";
import type { ChannelEntry } from "../channels/registry.js";
import type { ResolvedAgent } from "../config/agents.js";
import type { GatewayConfig } from "../config/schema.js";
import { isSilent, NO_REPLY } from "../no-reply.js";
import type { AgentSessions } from "../sessions/agent-sessions.js";
import type { SessionInit } from "../sessions/store.js";
import { rowOf } from "../sessions/store.js";
import type { Sql } from "../state/index.js";
import { TurnReactions } from "../turn-reactions/turn.js";
import type { TurnCommitter } from "./commit.js";
import type { ExternalTurns } from "./external.js";
import { turnSystemPrompt } from "./prompt.js";
import { failureNotice } from "./reply.js";
import { bindMessageTool, MessageToolDefinitions } from "./tool-binding.js";
import { readHistory, recordTurn } from "./transcript.js";
import { TurnTyping, typingModeFor } from "./typing.js";
import { announceToolCalls } from "./verbose.js";

export interface TurnRunnerOptions {
  config: GatewayConfig;
  sessionsOf(agentId: string): Promise<AgentSessions>;
  tools: MessageToolCalls;
  /** Commits a turn's result with its inbox row, then sends the reply from the outbox. */
  committer: TurnCommitter;
  /** Notes for a session's next turn (reaction notifications): read at its start, removed in its commit. */
  systemEvents: {
    peek(sessionKey: string): Promise<string[]>;
    consume(sql: Sql, sessionKey: string, shown: readonly string[]): Promise<void>;
  };
  /** The last model failure per agent, for the owner's `/status`. */
  failures?: ModelFailures;
  /** Where turns of outside agents (`provider: "external"`) wait for their answer. */
  external?: ExternalTurns;
  logger: Logger;
}

/** The message that triggered a turn (absent for heartbeats). */
export interface TurnTrigger {
  ref: MessageRef;
  senderName: string;
  text: string;
}

export interface TurnRequest {
  entry: ChannelEntry;
  agent: ResolvedAgent;
  sessionKey: string;
  init: SessionInit;
  conversation: Conversation;
  trigger?: TurnTrigger;
  /** What the model receives as the user message (the group batch, or the DM text). */
  userText: string;
  /** The bot was mentioned (or it is a DM): typing and ack scope depend on it. */
  mentioned: boolean;
  /** The group introduction for the system prompt (first turn, after /activation). */
  intro?: string;
  signal: AbortSignal;
  /** The inbox row this turn answers (absent for heartbeats): marked done in the turn's commit. */
  inboxId?: number;
  /** When that row was received (an outside agent's answer can come before the turn waits for it). */
  receivedAt?: number;
  /** Runs first in the commit and may refuse it (a lost lease). */
  fence?: (sql: Sql) => Promise<void>;
  /** More of the turn's commit (the group context's mark). */
  also?: (sql: Sql) => Promise<void>;
}

/**
 * Runs one agent turn, in order: the session's history, the system prompt, the turn's reactions
 * and typing, the model with the `message` tool; then one commit (transcript, session, the reply
 * as an outbox row, the inbox row done) and the reply sent from the outbox. Each policy lives in
 * its own file of `turn/` (see the gateway README).
 */
export class TurnRunner {
  readonly #definitions = new MessageToolDefinitions();

  constructor(private readonly options: TurnRunnerOptions) {}

  async run(request: TurnRequest): Promise<void> {
    const { config, tools, logger } = this.options;
    const { entry, agent, sessionKey, conversation, trigger } = request;
    const { store, transcripts } = await this.options.sessionsOf(agent.id);
    const session = store.ensure(sessionKey, request.init);
    const { history, summaries } = await readHistory(
      transcripts,
      session.sessionId,
      config.agents.defaults.historyMessages,
    );
    const reactionLevel = resolveReactionLevel(entry.settings.reactionLevel);
    const address: ConversationAddress = {
      id: conversation.id,
      ...(conversation.threadId !== undefined ? { threadId: conversation.threadId } : {}),
    };
    const scope: TurnScope = {
      channel: entry.plugin.id,
      accountId: entry.accountId,
      conversation: address,
      ...(trigger ? { message: trigger.ref } : {}),
    };
    const events = await this.options.systemEvents.peek(sessionKey);
    const system = turnSystemPrompt({
      agent,
      channelLabel: entry.plugin.label,
      chatType: conversation.kind,
      reactionLevel,
      intro: request.intro,
      summaries,
      events,
      think: session.settings.think,
    });

    const instance = entry.supervisor.instance;
    const reactions =
      trigger && instance
        ? new TurnReactions({
            target: { plugin: entry.plugin, instance, ref: trigger.ref },
            messages: config.messages,
            chatType: conversation.kind,
            mentioned: request.mentioned,
            reactionLevel,
            logger,
          })
        : undefined;
    const typing = new TurnTyping({
      entry,
      conversation: address,
      mode: typingModeFor(config.agents.defaults.typingMode, conversation.kind, request.mentioned),
      logger,
    });
    reactions?.begin();
    typing.start();

    let result: TurnResult | undefined;
    let reply: string;
    let failed = false;
    /** The message id of the outside agent's answer, already sent by its own call (provider external). */
    let sentOutside: string | undefined;
    try {
      reactions?.progress("thinking");
      if (agent.model.provider === "external" && this.options.external) {
        const outcome = await this.options.external.wait(
          scope,
          agent.model.timeoutMs,
          request.signal,
          request.receivedAt,
        );
        if (outcome.kind === "sent") sentOutside = outcome.messageId;
        reply = outcome.kind === "sent" ? outcome.text : NO_REPLY;
      } else {
        result = await runTurn({
          model: agent.model,
          system,
          history,
          user: request.userText,
          tool: bindMessageTool({
            definition: this.#definitions.for(entry, reactionLevel),
            tools,
            scope,
            trigger,
            reactions,
          }),
          maxSteps: config.agents.defaults.maxSteps,
          signal: request.signal,
        });
        reply = result.text.trim();
      }
    } catch (error) {
      failed = true;
      const failure = toChorusError(error);
      logger.warn({ sessionKey, code: failure.code, err: failure.message }, "the agent could not answer");
      this.options.failures?.record(agent.id, failure);
      reply = failureNotice(agent.name);
    }
    if (!failed) this.options.failures?.clear(agent.id);

    // A shutdown that gave up waiting: nothing is committed, the message is handled again after the restart.
    if (request.signal.aborted) {
      await typing.end();
      await reactions?.end("error");
      throw request.signal.reason ?? new Error("the turn was aborted");
    }
    const silent = sentOutside !== undefined || isSilent(reply);
    const record = recordTurn({
      store,
      session,
      userText: request.userText,
      trigger,
      result,
      reply,
      introduced: request.intro !== undefined,
    });
    if (sentOutside !== undefined) {
      const last = record.entries.length - 1;
      record.entries[last] = { ...(record.entries[last] as (typeof record.entries)[number]), messageId: sentOutside };
    }
    if (!silent && session.settings.verbose === true) await announceToolCalls(tools, result, scope);
    const outbox = await this.options.committer.commit({
      sessionKey,
      ...(request.inboxId !== undefined ? { inboxId: request.inboxId } : {}),
      transcript: { sessionId: session.sessionId, entries: record.entries },
      sessions: [rowOf(record.session)],
      replies: silent
        ? []
        : [
            {
              text: reply,
              scope,
              ...(conversation.kind === "group" && trigger ? { replyTo: trigger.ref.messageId } : {}),
              entryIndex: record.entries.length - 1,
            },
          ],
      ...(request.fence ? { fence: request.fence } : {}),
      also: async (sql: Sql) => {
        await request.also?.(sql);
        if (events.length > 0) await this.options.systemEvents.consume(sql, sessionKey, events);
      },
    });
    store.committed(record.session);
    if (outbox.length > 0) {
      await typing.beforeReply();
      await this.options.committer.deliver(outbox);
    }
    await typing.end();
    await reactions?.end(failed ? "error" : sentOutside !== undefined || !silent ? "done" : "noreply");
  }
}
