import type { InboundMessageEvent, Participant } from "@chorus/core";
import type { PairingStore } from "../access/pairing-store.js";
import { checkAccess } from "../access/policy.js";
import type { ModelFailures } from "../agent/failures.js";
import type { ChannelEntry } from "../channels/registry.js";
import { applyCommand } from "../commands/apply.js";
import { parseCommand } from "../commands/parse.js";
import type { ResolvedAgent } from "../config/agents.js";
import type { GatewayConfig } from "../config/schema.js";
import { activates, activationOf, configuredActivation } from "../groups/activation.js";
import { EchoGuard } from "../groups/echo.js";
import { formatBatch, PendingHistory, type PendingMessage, resolveHistoryLimit } from "../groups/history.js";
import { introFor } from "../groups/intro.js";
import { compileMentionPatterns, detectMention } from "../groups/mentions.js";
import type { SessionInit, SessionStore } from "../sessions/store.js";
import type { TranscriptStore } from "../sessions/transcript.js";
import type { TranscriptEntry } from "../sessions/transcript-entry.js";

/** What to do with one inbound message (DESIGN §4). */
export type GateDecision =
  | { kind: "blocked"; reason: string; reply?: string }
  | { kind: "command"; reply: string }
  | { kind: "buffered"; reason: string }
  | { kind: "echo" }
  | { kind: "run"; userText: string; mentioned: boolean; intro?: string };

export interface GateOptions {
  config: GatewayConfig;
  pairing: PairingStore;
  /** The agents' last model failures, shown to owners by `/status`. */
  failures?: ModelFailures;
  /** Groups whose pending messages are kept in memory at once (LRU). */
  maxGroups?: number;
}

export interface GateInput {
  entry: ChannelEntry;
  event: InboundMessageEvent;
  agent: ResolvedAgent;
  sessionKey: string;
  bot: Participant | undefined;
  store: SessionStore;
  transcripts: TranscriptStore;
  summarise(entries: readonly TranscriptEntry[]): Promise<string>;
}

/**
 * Decides what one inbound message does, in order: access (`access/policy.ts`), chat commands
 * (`commands/`), then for groups the activation (`groups/activation.ts`, `groups/mentions.ts`),
 * pending history (`groups/history.ts`), echo suppression (`groups/echo.ts`) and the intro
 * (`groups/intro.ts`). Each rule lives in the file named; this class only puts them in order.
 */
export class MessageGate {
  readonly pending: PendingHistory;
  readonly #echo = new EchoGuard();

  constructor(private readonly options: GateOptions) {
    this.pending = new PendingHistory({ maxGroups: options.maxGroups ?? 10_000 });
  }

  async decide(input: GateInput): Promise<GateDecision> {
    const { entry, event, agent, sessionKey, bot, store } = input;
    const { settings } = entry;
    const access = await checkAccess({
      channel: entry.plugin.id,
      accountId: entry.accountId,
      conversation: event.conversation,
      sender: event.sender,
      settings,
      ...(bot ? { bot } : {}),
      pairing: this.options.pairing,
    });
    if (!access.allowed) {
      const code = access.pairing?.firstTime ? access.pairing.code : undefined;
      return {
        kind: "blocked",
        reason: access.reason,
        ...(code ? { reply: pairingReply(code) } : {}),
      };
    }

    const configured = configuredActivation(settings, event.conversation.id);
    const command = parseCommand(event.text, bot?.name ? { botUsernames: [bot.name] } : {});
    let refusedCommand = false;
    if (command) {
      const result = await applyCommand(command, {
        owner: access.owner,
        chatType: event.conversation.kind,
        sessionKey,
        init: sessionInit(entry, event, agent),
        store,
        transcripts: input.transcripts,
        agent,
        channelLabel: entry.plugin.label,
        defaultActivation: configured,
        summarise: input.summarise,
        forget: (key) => this.forget(key),
        lastFailure: this.options.failures?.last(agent.id),
      });
      if (result.handled) return { kind: "command", reply: result.reply };
      refusedCommand = true; // a non-owner's /activation: context only
    }

    if (event.conversation.kind !== "group") return { kind: "run", userText: event.text, mentioned: true };

    const activation = activationOf(store.settings(sessionKey), configured);
    const mention = detectMention({
      text: event.text,
      mentions: event.mentions,
      ...(event.replyTo ? { replyTo: { fromBot: event.replyTo.fromBot } } : {}),
      patterns: compileMentionPatterns(agent.mentionPatterns),
      ...(bot?.e164 ? { botE164: bot.e164 } : {}),
    });
    const current = pendingOf(event);
    if (!activates({ activation, mentioned: mention.mentioned, refusedCommand })) {
      this.pending.add(
        sessionKey,
        current,
        resolveHistoryLimit(settings, this.options.config.messages.groupChat.historyLimit),
      );
      return {
        kind: "buffered",
        reason: refusedCommand ? "a command only owners may use; kept as context" : "not mentioned",
      };
    }
    const batch = formatBatch(this.pending.take(sessionKey), current);
    if (this.#echo.isRepeat(sessionKey, batch, mention.mentioned)) return { kind: "echo" };
    const intro = introFor(store.settings(sessionKey), {
      channelLabel: entry.plugin.label,
      conversation: event.conversation,
      activation,
    });
    return { kind: "run", userText: batch, mentioned: mention.mentioned, ...(intro ? { intro } : {}) };
  }

  /** Forgets a conversation's buffered messages and echo memory (`/new`, `/reset`). */
  forget(sessionKey: string): void {
    this.pending.clear(sessionKey);
    this.#echo.clear(sessionKey);
  }
}

function pendingOf(event: InboundMessageEvent): PendingMessage {
  return {
    sender: event.sender.name ?? event.sender.id,
    ...(event.sender.e164 ? { e164: event.sender.e164 } : {}),
    text: event.text,
    messageId: event.ref.messageId,
    at: event.timestamp,
  };
}

/** The session entry a message of this conversation starts. */
export function sessionInit(entry: ChannelEntry, event: InboundMessageEvent, agent: ResolvedAgent): SessionInit {
  return {
    agentId: agent.id,
    channel: entry.plugin.id,
    accountId: entry.accountId,
    conversationId: event.conversation.id,
    chatType: event.conversation.kind,
    ...(event.conversation.title !== undefined ? { title: event.conversation.title } : {}),
    ...(event.conversation.threadId !== undefined ? { threadId: event.conversation.threadId } : {}),
  };
}

function pairingReply(code: string): string {
  return `This assistant only talks to people its owner approved. Your pairing code is ${code}; ask the owner to run: chorus pairing approve ${code}`;
}
