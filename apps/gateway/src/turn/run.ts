import { type ConversationAddress, resolveReactionLevel, toChorusError } from "@chorus/core";
import type { Logger } from "pino";
import { type ModelFailures, runTurn, type TurnResult } from "../agent/index.js";
import type { MessageToolCalls, TurnScope } from "../channels/index.js";
import type { GatewayConfig } from "../config/index.js";
import { type AgentSessions, rowOf } from "../sessions/index.js";
import type { Sql } from "../state/index.js";
import { isSilent, NO_REPLY } from "../support/index.js";
import { TurnReactions } from "../turn-reactions/index.js";
import type { ExternalTurns } from "./external.js";
import { turnSystemPrompt } from "./prompt.js";
import { failureNotice } from "./reply.js";
import { bindMessageTool, MessageToolDefinitions } from "./tool-binding.js";
import { readHistory, recordTurn } from "./transcript.js";
import type { TurnAnswer, TurnRequest } from "./types.js";
import { TurnTyping, typingModeFor } from "./typing.js";
import { announceToolCalls } from "./verbose.js";

export interface TurnRunnerOptions {
  config: GatewayConfig;
  sessionsOf(agentId: string): Promise<AgentSessions>;
  tools: MessageToolCalls;
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

/**
 * Runs one agent turn, in order: the session's history, the system prompt, the turn's reactions
 * and typing, the model with the `message` tool; it returns what the turn leaves — the pipeline's
 * handle step commits it and the deliver step sends the reply. Each policy lives in its own file
 * of `turn/` (see the gateway README).
 */
export class TurnRunner {
  readonly #definitions: MessageToolDefinitions;

  constructor(private readonly options: TurnRunnerOptions) {
    this.#definitions = new MessageToolDefinitions(options.config.gateway.publicUrl !== undefined);
  }

  async run(request: TurnRequest): Promise<TurnAnswer> {
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
    let modelError: { code: string; message: string } | undefined;
    const modelStarted = performance.now();
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
          images: request.images,
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
      modelError = { code: failure.code, message: failure.message };
      this.options.failures?.record(agent.id, failure);
      reply = failureNotice(agent.name);
    }
    if (!failed) this.options.failures?.clear(agent.id);
    const modelMs = performance.now() - modelStarted;

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
    const systemEvents = this.options.systemEvents;
    const outcome = failed ? "error" : sentOutside !== undefined || !silent ? "done" : "noreply";
    let ended = false;
    return {
      outcome: outcome === "done" ? "replied" : outcome === "noreply" ? "no-reply" : "error",
      model: { provider: agent.model.provider, ms: modelMs, ...(modelError ? { error: modelError } : {}) },
      transcript: { sessionId: session.sessionId, entries: record.entries },
      session: rowOf(record.session),
      ...(silent
        ? {}
        : {
            reply: {
              text: reply,
              scope,
              ...(conversation.kind === "group" && trigger ? { replyTo: trigger.ref.messageId } : {}),
              entryIndex: record.entries.length - 1,
            },
          }),
      also: async (sql) => {
        if (events.length > 0) await systemEvents.consume(sql, sessionKey, events);
      },
      committed: () => store.committed(record.session),
      beforeReply: () => typing.beforeReply(),
      end: async () => {
        if (ended) return;
        ended = true;
        await typing.end();
        await reactions?.end(outcome);
      },
    };
  }
}
