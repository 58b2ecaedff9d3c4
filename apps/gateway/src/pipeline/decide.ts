import type { InboundMessageEvent, Participant } from "@chorus/core";
import { checkAccess, type PairingStore } from "../access/index.js";
import type { ModelFailures } from "../agent/index.js";
import type { ChannelEntry } from "../channels/index.js";
import { applyCommand, parseCommand } from "../commands/index.js";
import type { GatewayConfig, ResolvedAgent } from "../config/index.js";
import {
  activates,
  activationOf,
  compileMentionPatterns,
  configuredActivation,
  detectMention,
  formatBatch,
  GroupContextStore,
  introFor,
  pendingOf,
  resolveHistoryLimit,
} from "../groups/index.js";
import type { SessionInit, SessionStore, TranscriptEntry, TranscriptStore } from "../sessions/index.js";
import type { BufferedRow, Sql, StateStore } from "../state/index.js";
import { type MessageImage, type MessageMedia, type Understood, withLines } from "../understand/index.js";

/** What to do with one inbound message (DESIGN §4). */
export type GateDecision =
  | { kind: "blocked"; reason: string; reply?: string }
  | { kind: "command"; reply: string }
  | { kind: "buffered"; reason: string }
  | { kind: "echo"; settle?: Settle }
  | {
      kind: "run";
      userText: string;
      mentioned: boolean;
      /** The current message's photos as image input (a model that takes images). */
      images?: readonly MessageImage[];
      intro?: string;
      settle?: Settle;
    };

/** A group message's mark on its session's context (context consumed, echo memory): committed with the message. */
export type Settle = (sql: Sql) => Promise<void>;

export interface GateOptions {
  config: GatewayConfig;
  pairing: PairingStore;
  /** The state layer: a group's pending context (its buffered inbox rows) and echo memory are kept there. */
  state: Pick<StateStore, "kv" | "inbox">;
  /** The agents' last model failures, shown to owners by `/status`. */
  failures?: ModelFailures;
}

export interface GateInput {
  entry: ChannelEntry;
  event: InboundMessageEvent;
  agent: ResolvedAgent;
  sessionKey: string;
  /** The message's inbox row (group context is counted in inbox rows). */
  inboxId: number;
  bot: Participant | undefined;
  store: SessionStore;
  transcripts: TranscriptStore;
  summarise(entries: readonly TranscriptEntry[]): Promise<string>;
  /** Waits until the session's earlier messages are committed (a command and a triggered message's context read what they wrote). */
  earlier?: () => Promise<void>;
  /** The message's attachments, read when a rule needs them (none: the text alone). */
  media?: MessageMedia | undefined;
  /** A buffered message's attachments (the context of a triggered group turn). */
  mediaOf?: ((row: BufferedRow) => MessageMedia) | undefined;
}

/**
 * Decides what one inbound message does, in order: access (`access/policy.ts`), chat commands
 * (`commands/`), then for groups the activation (`groups/activation.ts`, `groups/mentions.ts`),
 * pending history (`groups/history.ts`, kept by `groups/context-store.ts`), echo suppression
 * (`groups/echo.ts`) and the intro (`groups/intro.ts`). Each rule lives in the file named; this
 * class only puts them in order. A message it buffers is kept by its caller marking its inbox row
 * `buffered`; the pending context and echo memory are on the state layer, shared by every gateway.
 */
export class MessageGate {
  readonly #context: GroupContextStore;

  constructor(private readonly options: GateOptions) {
    this.#context = new GroupContextStore(options.state);
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
      await input.earlier?.();
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
        forget: (key) => this.forget(key, input.inboxId),
        lastFailure: this.options.failures?.last(agent.id),
      });
      if (result.handled) return { kind: "command", reply: result.reply };
      refusedCommand = true; // a non-owner's /activation: context only
    }

    if (event.conversation.kind !== "group") {
      // What the agent gets of the attachments: for its model (image input where it takes images).
      const seen = input.media ? await input.media.understood(input.agent.model) : nothingUnderstood();
      return { kind: "run", userText: withLines(event.text, seen.lines), mentioned: true, ...imagesOf(seen) };
    }

    const activation = activationOf(store.settings(sessionKey), configured);
    // A voice note from an allowed sender is heard before mention detection: "Chorus, …" spoken wakes the agent.
    const spoken = input.media ? await input.media.spoken() : "";
    const mention = detectMention({
      text: withLines(event.text, [spoken]),
      mentions: event.mentions,
      ...(event.replyTo ? { replyTo: { fromBot: event.replyTo.fromBot } } : {}),
      patterns: compileMentionPatterns(agent.mentionPatterns),
      ...(bot?.e164 ? { botE164: bot.e164 } : {}),
    });
    if (!activates({ activation, mentioned: mention.mentioned, refusedCommand })) {
      // Kept as context by its inbox row, marked `buffered` when the caller commits it.
      return {
        kind: "buffered",
        reason: refusedCommand ? "a command only owners may use; kept as context" : "not mentioned",
      };
    }
    await input.earlier?.();
    const limit = resolveHistoryLimit(settings, this.options.config.messages.groupChat.historyLimit);
    const { mediaOf } = input;
    const linesOf = mediaOf && ((row: BufferedRow) => mediaOf(row).context());
    const context = await this.#context.triggered(sessionKey, input.inboxId, limit, linesOf);
    const seen = input.media ? await input.media.understood(input.agent.model) : nothingUnderstood();
    const current = pendingOf(event);
    const batch = formatBatch(context.pending, { ...current, text: withLines(current.text, seen.lines) });
    const settled = context.settle(batch, mention.mentioned);
    if (settled.echo) return { kind: "echo", settle: settled.record };
    const intro = introFor(store.settings(sessionKey), {
      channelLabel: entry.plugin.label,
      conversation: event.conversation,
      activation,
    });
    return {
      kind: "run",
      userText: batch,
      mentioned: mention.mentioned,
      ...imagesOf(seen),
      ...(intro ? { intro } : {}),
      settle: settled.record,
    };
  }

  /** Forgets a conversation's buffered messages and echo memory as of inbox row `row` (`/new`, `/reset`). */
  forget(sessionKey: string, row: number): Promise<void> {
    return this.#context.forget(sessionKey, row);
  }
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

/** What the agent gets of a message without attachments (no promise to wait for). */
function nothingUnderstood(): Understood {
  return { lines: [], images: [] };
}

function imagesOf(seen: Understood): { images?: readonly MessageImage[] } {
  return seen.images.length > 0 ? { images: seen.images } : {};
}

function pairingReply(code: string): string {
  return `This assistant only talks to people its owner approved. Your pairing code is ${code}; ask the owner to run: chorus pairing approve ${code}`;
}
