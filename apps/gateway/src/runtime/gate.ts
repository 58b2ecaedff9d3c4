import type { InboundMessageEvent, Participant } from "@chorus/core";
import type { ResolvedAgent } from "../config/index.js";
import type { GatewayConfig } from "../config/schema.js";
import { checkAccess, groupConfigFor } from "../groups/access.js";
import { type ActivationMode, applyCommand, parseCommand } from "../groups/commands.js";
import { EchoGuard } from "../groups/echo.js";
import { formatBatch, PendingHistory, type PendingMessage, resolveHistoryLimit } from "../groups/history.js";
import { compileMentionPatterns, detectMention } from "../groups/mentions.js";
import type { PairingStore } from "../groups/pairing.js";
import { groupIntro } from "../groups/prompt.js";
import type { SessionInit, SessionStore, TranscriptEntry, TranscriptStore } from "../sessions/index.js";
import type { ChannelEntry } from "./channel-registry.js";

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

/** Access control, commands, activation and mention gating, pending history and echo suppression. */
export class MessageGate {
  readonly pending: PendingHistory;
  readonly #echo = new EchoGuard();

  constructor(private readonly options: GateOptions) {
    this.pending = new PendingHistory({ maxGroups: options.maxGroups ?? 10_000 });
  }

  async decide(input: GateInput): Promise<GateDecision> {
    const { entry, event, agent, sessionKey, bot, store } = input;
    const { settings } = entry;
    const group = event.conversation.kind === "group";
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

    const defaultActivation: ActivationMode = requireMention(entry, event.conversation.id) ? "mention" : "always";
    const command = parseCommand(event.text, bot?.name ? { botUsernames: [bot.name] } : {});
    let commandIgnored = false;
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
        defaultActivation,
        summarise: input.summarise,
        pending: this.pending,
      });
      if (result.handled) return { kind: "command", reply: result.reply };
      commandIgnored = true; // a non-owner's /activation: context only
    }

    const current = pendingOf(event);
    if (!group) return { kind: "run", userText: event.text, mentioned: true };

    const session = store.get(sessionKey);
    const activation = (session?.settings.activation as ActivationMode | undefined) ?? defaultActivation;
    const mention = detectMention({
      text: event.text,
      mentions: event.mentions,
      ...(event.replyTo ? { replyTo: { fromBot: event.replyTo.fromBot } } : {}),
      patterns: compileMentionPatterns(agent.mentionPatterns),
      ...(bot?.e164 ? { botE164: bot.e164 } : {}),
    });
    const triggered = !commandIgnored && (mention.mentioned || activation === "always");
    if (!triggered) {
      this.pending.add(sessionKey, current, this.#historyLimit(entry));
      return {
        kind: "buffered",
        reason: commandIgnored ? "a command only owners may use; kept as context" : "not mentioned",
      };
    }
    const batch = formatBatch(this.pending.take(sessionKey), current);
    if (this.#echo.isRepeat(sessionKey, batch, mention.mentioned)) return { kind: "echo" };
    const needsIntro = session?.settings.groupIntroduced !== true;
    return {
      kind: "run",
      userText: batch,
      mentioned: mention.mentioned,
      ...(needsIntro
        ? {
            intro: groupIntro({
              channelLabel: entry.plugin.label,
              ...(event.conversation.title ? { subject: event.conversation.title } : {}),
              ...(event.conversation.members
                ? { members: event.conversation.members.filter((m) => !m.isBot).map((m) => m.name ?? m.id) }
                : {}),
              activation,
            }),
          }
        : {}),
    };
  }

  #historyLimit(entry: ChannelEntry): number {
    return resolveHistoryLimit(entry.settings, undefined, this.options.config.messages.groupChat.historyLimit);
  }
}

/** `groups.<id>.requireMention`, else `groups["*"].requireMention` (the defaults), else true. */
function requireMention(entry: ChannelEntry, groupId: string): boolean {
  const own = groupConfigFor(entry.settings, groupId)?.config.requireMention;
  return own ?? groupConfigFor(entry.settings, "*")?.config.requireMention ?? true;
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
