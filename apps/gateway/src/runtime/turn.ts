import {
  buildMessageTool,
  type Conversation,
  type MessageRef,
  type MessageToolDefinition,
  type MessageToolInput,
  type ReactionLevel,
  toChorusError,
} from "@chorus/core";
import type { Logger } from "pino";
import { buildSystemPrompt, runTurn, type TurnResult } from "../agent/index.js";
import type { ResolvedAgent } from "../config/index.js";
import type { GatewayConfig } from "../config/schema.js";
import { TurnReactions } from "../reactions/index.js";
import type { AgentSessions, SessionInit, TranscriptEntry } from "../sessions/index.js";
import type { ChannelEntry } from "./channel-registry.js";
import type { MessageToolExecutor, TurnScope } from "./message-tool.js";
import { systemText } from "./turn-prompt.js";

/** What the model answers to stay silent (DESIGN §4): exact, case-insensitive, whitespace around. */
export const NO_REPLY = /^\s*no_reply\s*$/i;

export interface TurnRunnerOptions {
  config: GatewayConfig;
  sessionsOf(agentId: string): Promise<AgentSessions>;
  tools: MessageToolExecutor;
  /** Notes for a session's next turn (reaction notifications). */
  systemEvents: { drain(sessionKey: string): string[] };
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
}

/** Runs one agent turn and commits it to the session's transcript. */
export class TurnRunner {
  readonly #tools = new WeakMap<ChannelEntry, Map<ReactionLevel, MessageToolDefinition>>();

  constructor(private readonly options: TurnRunnerOptions) {}

  async run(request: TurnRequest): Promise<void> {
    const { config, tools, logger } = this.options;
    const { entry, agent, sessionKey, conversation, trigger } = request;
    const { store, transcripts } = await this.options.sessionsOf(agent.id);
    const session = store.ensure(sessionKey, request.init);
    const earlier = await transcripts.read(session.sessionId, { limit: config.agents.defaults.historyMessages });
    const history = earlier
      .filter((e) => e.role === "user" || e.role === "assistant")
      .map((e) => ({ role: e.role as "user" | "assistant", content: e.content }));
    const summaries = earlier.filter((e) => e.role === "system").map((e) => e.content);

    const reactionLevel = entry.settings.reactionLevel ?? "minimal";
    const definition = this.#toolFor(entry, reactionLevel);
    const address = {
      id: conversation.id,
      ...(conversation.threadId !== undefined ? { threadId: conversation.threadId } : {}),
    };
    const scope: TurnScope = {
      channel: entry.plugin.id,
      accountId: entry.accountId,
      conversation: address,
      ...(trigger ? { message: trigger.ref } : {}),
    };
    const system = systemText({
      base: buildSystemPrompt({
        agentName: agent.name,
        ...(agent.systemPrompt !== undefined ? { basePrompt: agent.systemPrompt } : {}),
        channelLabel: entry.plugin.label,
        chatType: conversation.kind,
        reactionLevel,
      }),
      intro: request.intro,
      summaries,
      events: this.options.systemEvents.drain(sessionKey),
      think: session.settings.think as string | undefined,
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
    reactions?.begin();
    const typingMode =
      config.agents.defaults.typingMode ??
      (conversation.kind === "group" && !request.mentioned ? "message" : "instant");
    // Typing is cosmetic: it must not delay the model call by a platform round trip.
    const typingOn =
      typingMode === "instant" || typingMode === "thinking" ? this.#typing(entry, address, true) : undefined;

    let result: TurnResult | undefined;
    let reply: string;
    let failed = false;
    try {
      reactions?.progress("thinking");
      result = await runTurn({
        model: agent.model,
        system,
        history,
        user: request.userText,
        tool: {
          definition,
          execute: async (input: MessageToolInput) => {
            reactions?.progress("tool");
            if (input.action === "react") await reactions?.settled();
            const output = await tools.execute(input, scope);
            if (output.action === "react" && trigger) {
              const messageId = input.messageId ?? trigger.ref.messageId;
              reactions?.agentReacted(messageId, { op: output.op, ...(output.emoji ? { emoji: output.emoji } : {}) });
              if (input.trackToolCalls) {
                const ref = messageId === trigger.ref.messageId ? trigger.ref : { ...trigger.ref, messageId };
                reactions?.retarget(ref);
              }
            }
            return output;
          },
        },
        maxSteps: config.agents.defaults.maxSteps,
        signal: request.signal,
      });
      reply = result.text.trim();
    } catch (error) {
      failed = true;
      const failure = toChorusError(error);
      logger.warn({ sessionKey, code: failure.code, err: failure.message }, "the agent could not answer");
      reply = `⚠️ ${agent.name} could not answer: ${withoutModelAddress(failure.message)}`;
    }

    const silent = reply === "" || NO_REPLY.test(reply);
    let replyId: string | undefined;
    if (!silent) {
      if (typingMode === "message") await this.#typing(entry, address, true);
      if (session.settings.verbose === true) await this.#announceTools(result, scope);
      replyId = await this.#send(reply, conversation, trigger, scope, sessionKey);
    }
    await typingOn;
    if (typingMode !== "never") await this.#typing(entry, address, false);
    await reactions?.end(failed ? "error" : silent ? "noreply" : "done");

    const at = new Date().toISOString();
    const turnId = `${Date.now().toString(36)}-${trigger?.ref.messageId ?? "heartbeat"}`;
    const entries: TranscriptEntry[] = [
      {
        at,
        role: "user",
        content: request.userText,
        turnId,
        ...(trigger ? { messageId: trigger.ref.messageId, name: trigger.senderName } : { name: "heartbeat" }),
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
    store.update(sessionKey, (current) => ({
      ...current,
      turns: current.turns + 1,
      updatedAt: at,
      ...(request.intro ? { settings: { ...current.settings, groupIntroduced: true } } : {}),
    }));
    await store.flush();
  }

  /** Asks the agent's model for a summary of a transcript (for `/compact`). */
  async summarise(agent: ResolvedAgent, entries: readonly TranscriptEntry[], signal?: AbortSignal): Promise<string> {
    const text = entries
      .filter((e) => e.role !== "tool")
      .map((e) => `${e.role === "assistant" ? agent.name : (e.name ?? e.role)}: ${e.content}`)
      .join("\n");
    const result = await runTurn({
      model: agent.model,
      system:
        "Summarise the conversation below for your own future reference: the people, facts, decisions and open questions. Plain text, at most 200 words.",
      history: [],
      user: text,
      maxSteps: 1,
      ...(signal ? { signal } : {}),
    });
    return result.text.trim();
  }

  async #send(
    reply: string,
    conversation: Conversation,
    trigger: TurnTrigger | undefined,
    scope: TurnScope,
    sessionKey: string,
  ): Promise<string | undefined> {
    try {
      const sent = await this.options.tools.execute(
        {
          action: "send",
          text: reply,
          ...(conversation.kind === "group" && trigger ? { replyTo: trigger.ref.messageId } : {}),
        },
        scope,
      );
      return sent.action === "send" ? sent.messageId : undefined;
    } catch (error) {
      this.options.logger.warn({ sessionKey, err: toChorusError(error).message }, "could not send the reply");
      return undefined;
    }
  }

  /** `/verbose on`: each tool call of the turn is shown in the chat before the reply. */
  async #announceTools(result: TurnResult | undefined, scope: TurnScope): Promise<void> {
    for (const call of result?.toolCalls ?? []) {
      const input = call.input as Record<string, unknown>;
      const output = call.output as { ok?: boolean; error?: { code?: string } } | undefined;
      const outcome = output?.ok === false ? `failed (${output.error?.code ?? "error"})` : "ok";
      const text = `🛠 message ${String(input.action ?? "")} ${String(input.emoji ?? input.text ?? "")}`.trim();
      await this.options.tools.execute({ action: "send", text: `${text} → ${outcome}` }, scope).catch(() => undefined);
    }
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
