import {
  buildMessageTool,
  type InboundMessageEvent,
  type MessageToolDefinition,
  type MessageToolInput,
  type ReactionLevel,
  toChorusError,
} from "@chorus/core";
import type { Logger } from "pino";
import { buildSystemPrompt, runTurn, type TurnResult } from "../agent/index.js";
import type { ResolvedAgent } from "../config/index.js";
import type { GatewayConfig } from "../config/schema.js";
import type { SessionStore, TranscriptEntry, TranscriptStore } from "../sessions/index.js";
import type { ChannelEntry } from "./channel-registry.js";
import type { MessageToolExecutor, TurnScope } from "./message-tool.js";

/** What the model answers to stay silent (DESIGN §4). */
export const NO_REPLY = /^\s*no_reply\s*$/i;

export interface TurnRunnerOptions {
  config: GatewayConfig;
  sessionsOf(agentId: string): Promise<{ store: SessionStore; transcripts: TranscriptStore }>;
  tools: MessageToolExecutor;
  logger: Logger;
}

export interface TurnRequest {
  entry: ChannelEntry;
  event: InboundMessageEvent;
  agent: ResolvedAgent;
  sessionKey: string;
  signal: AbortSignal;
}

/** Runs one agent turn for an inbound message and commits it to the session's transcript. */
export class TurnRunner {
  readonly #tools = new WeakMap<ChannelEntry, Map<ReactionLevel, MessageToolDefinition>>();

  constructor(private readonly options: TurnRunnerOptions) {}

  async run({ entry, event, agent, sessionKey, signal }: TurnRequest): Promise<void> {
    const { config, tools, logger } = this.options;
    const { store, transcripts } = await this.options.sessionsOf(agent.id);
    const plugin = entry.plugin;
    const session = store.ensure(sessionKey, {
      agentId: agent.id,
      channel: plugin.id,
      accountId: entry.accountId,
      conversationId: event.conversation.id,
      chatType: event.conversation.kind,
      ...(event.conversation.title !== undefined ? { title: event.conversation.title } : {}),
      ...(event.conversation.threadId !== undefined ? { threadId: event.conversation.threadId } : {}),
    });
    const history = (await transcripts.read(session.sessionId, { limit: config.agents.defaults.historyMessages }))
      .filter((e) => e.role === "user" || e.role === "assistant")
      .map((e) => ({ role: e.role as "user" | "assistant", content: e.content }));

    const reactionLevel = entry.settings.reactionLevel ?? "minimal";
    const definition = this.#toolFor(entry, reactionLevel);
    const conversation = {
      id: event.conversation.id,
      ...(event.conversation.threadId !== undefined ? { threadId: event.conversation.threadId } : {}),
    };
    const scope: TurnScope = { channel: plugin.id, accountId: entry.accountId, conversation, message: event.ref };
    const system = buildSystemPrompt({
      agentName: agent.name,
      ...(agent.systemPrompt !== undefined ? { basePrompt: agent.systemPrompt } : {}),
      channelLabel: plugin.label,
      chatType: event.conversation.kind,
      reactionLevel,
    });

    // Typing is cosmetic: it must not delay the model call by a platform round trip.
    const typingOn = this.#typing(entry, conversation, true);
    let result: TurnResult | undefined;
    let reply: string;
    try {
      result = await runTurn({
        model: agent.model,
        system,
        history,
        user: event.text,
        tool: { definition, execute: (input: MessageToolInput) => tools.execute(input, scope) },
        maxSteps: config.agents.defaults.maxSteps,
        signal,
      });
      reply = result.text.trim();
    } catch (error) {
      const failure = toChorusError(error);
      logger.warn({ sessionKey, code: failure.code, err: failure.message }, "the agent could not answer");
      reply = `⚠️ ${agent.name} could not answer: ${withoutModelAddress(failure.message)}`;
    } finally {
      await typingOn;
      await this.#typing(entry, conversation, false);
    }

    let replyId: string | undefined;
    if (reply !== "" && !NO_REPLY.test(reply)) {
      try {
        const sent = await tools.execute(
          {
            action: "send",
            text: reply,
            ...(event.conversation.kind === "group" ? { replyTo: event.ref.messageId } : {}),
          },
          scope,
        );
        if (sent.action === "send") replyId = sent.messageId;
      } catch (error) {
        logger.warn({ sessionKey, err: toChorusError(error).message }, "could not send the reply");
      }
    }

    const at = new Date().toISOString();
    const turnId = `${Date.now().toString(36)}-${event.ref.messageId}`;
    const entries: TranscriptEntry[] = [
      {
        at,
        role: "user",
        content: event.text,
        messageId: event.ref.messageId,
        turnId,
        name: event.sender.name ?? event.sender.id,
      },
      ...(result?.toolCalls ?? []).map(
        (call): TranscriptEntry => ({
          at,
          role: "tool",
          content: "",
          name: "message",
          toolCallId: call.id,
          input: call.input,
          output: call.output,
          turnId,
        }),
      ),
      { at, role: "assistant", content: reply, turnId, ...(replyId ? { messageId: replyId } : {}) },
    ];
    await transcripts.append(session.sessionId, entries);
    store.update(sessionKey, (current) => ({ ...current, turns: current.turns + 1, updatedAt: at }));
    await store.flush();
  }

  /** The message tool depends only on the channel and its reaction level: built once per pair. */
  #toolFor(entry: ChannelEntry, level: ReactionLevel): MessageToolDefinition {
    let byLevel = this.#tools.get(entry);
    if (!byLevel) {
      byLevel = new Map();
      this.#tools.set(entry, byLevel);
    }
    let definition = byLevel.get(level);
    if (!definition) {
      definition = buildMessageTool({
        capabilities: entry.plugin.capabilities,
        reactionLevel: level,
        channel: entry.plugin.label,
        ...(entry.plugin.vocabulary ? { vocabulary: entry.plugin.vocabulary } : {}),
      });
      byLevel.set(level, definition);
    }
    return definition;
  }

  async #typing(entry: ChannelEntry, conversation: { id: string }, on: boolean): Promise<void> {
    if (!entry.plugin.capabilities.typing) return;
    try {
      await entry.supervisor.instance?.setTyping(conversation, on);
    } catch (error) {
      this.options.logger.debug({ err: toChorusError(error).message }, "typing indicator failed");
    }
  }
}

/** The error as chat members see it: the operator's model address stays in the log only. */
export function withoutModelAddress(message: string): string {
  return message.replace(/ \(model "[^"]*" at [^)]*\)/g, "");
}
