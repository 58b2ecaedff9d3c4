import { KeyedQueue } from "@chorus/channel-kit";
import {
  ChorusError,
  type ConversationAddress,
  type MessageRef,
  type MessageToolInput,
  type MessageToolSuccess,
  normalizeReaction,
  type SendResult,
  toChorusError,
} from "@chorus/core";
import type { MessageIndex } from "../state/index.js";
import type { MediaSends } from "./media-send.js";
import type { ChannelEntry, ChannelRegistry } from "./registry.js";

/** Where a call made inside a turn defaults to: the conversation and message being answered. */
export interface TurnScope {
  channel: string;
  accountId: string;
  conversation: ConversationAddress;
  message?: MessageRef;
}

/**
 * The turn's own triggering message, when the call is about it: its ref came with the event (the
 * index holds the same), so no lookup is needed.
 */
function triggerRef(
  scope: TurnScope | undefined,
  entry: ChannelEntry,
  conversation: ConversationAddress,
  messageId: string,
): MessageRef | undefined {
  const ref = scope?.message;
  if (!ref || ref.messageId !== messageId || ref.conversationId !== conversation.id) return undefined;
  return ref.channel === entry.plugin.id && ref.accountId === entry.accountId ? ref : undefined;
}

/** What runs `message` tool calls: the turn's agent, the HTTP API (and through it the CLI). */
/** How a call is made: a `send` from the outbox carries the reply's idempotency key. */
export interface MessageCallOptions {
  idempotencyKey?: string;
  /** The outbox row being delivered (`MediaSends.resume`: the rows of a send with media). */
  outboxId?: number;
}

export interface MessageToolCalls {
  execute(input: MessageToolInput, scope?: TurnScope, options?: MessageCallOptions): Promise<MessageToolSuccess>;
}

/**
 * Executes `message` tool calls (send, react, reactions) for agents, the HTTP API, MCP and the CLI.
 * Calls on one message (react, reactions) run one after another, whoever makes them (DESIGN §3):
 * two at once could leave a channel's bot reaction record at odds with the platform.
 */
export class MessageToolExecutor implements MessageToolCalls {
  /** One queue entry per message with a call running or waiting; gone once idle. */
  readonly #perMessage = new KeyedQueue();

  constructor(
    private readonly registry: ChannelRegistry,
    private readonly index: MessageIndex,
    /** Sends with media or a location (DESIGN §2.6); without it such a send is refused. */
    private readonly media?: MediaSends | undefined,
  ) {}

  async execute(
    input: MessageToolInput,
    scope?: TurnScope,
    options: MessageCallOptions = {},
  ): Promise<MessageToolSuccess> {
    const channel = input.channel ?? scope?.channel;
    if (!channel) throw new ChorusError("E_INVALID_INPUT", "channel is required outside a conversation turn");
    const sameChannel =
      scope !== undefined && channel === scope.channel && (input.account ?? scope.accountId) === scope.accountId;
    const entry = this.registry.get(channel, input.account ?? (sameChannel ? scope?.accountId : undefined));
    const target = input.target ?? (sameChannel ? scope?.conversation.id : undefined);
    if (!target)
      throw new ChorusError("E_INVALID_INPUT", "target (the conversation id) is required outside a conversation turn");
    const conversation: ConversationAddress =
      sameChannel && scope?.conversation.id === target ? scope.conversation : { id: target };
    const instance = this.registry.instanceOf(entry);
    // Argument errors come before any message lookup or plugin call, on every path (DESIGN §2.2, §6):
    // core's reaction rules decide the intent (or refuse the call) from the arguments and flags alone.
    const intent =
      input.action === "react"
        ? normalizeReaction(reactionCall(input), entry.capabilities.reactions, entry.plugin.vocabulary, {
            channel: entry.plugin.label,
          })
        : undefined;
    if (input.action === "reactions" && (!entry.capabilities.reactions.list || !instance.listReactions)) {
      throw new ChorusError("E_UNSUPPORTED", `${entry.plugin.label} cannot list reactions on a message.`);
    }

    return this.#guard(entry, async () => {
      if (input.action === "send") {
        const withMedia = await this.#sendMedia(entry, conversation, input, options);
        if (withMedia) return withMedia;
        const replyTo = input.replyTo
          ? (triggerRef(scope, entry, conversation, input.replyTo) ??
            (await this.#ref(entry, conversation, input.replyTo)))
          : undefined;
        const ref = await instance.send(conversation, {
          text: input.text ?? "",
          ...(replyTo ? { replyTo } : {}),
          ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
        });
        this.index.put(ref);
        return { ok: true, action: "send", messageId: ref.messageId };
      }
      const messageId = input.messageId ?? (scope?.conversation.id === target ? scope?.message?.messageId : undefined);
      if (!messageId) throw new ChorusError("E_INVALID_INPUT", "messageId is required outside a conversation turn");
      return this.#perMessage.run(messageKey(entry, conversation.id, messageId), async () => {
        // The instance of now: the account may have restarted while this call waited its turn.
        const current = this.registry.instanceOf(entry);
        const ref =
          triggerRef(scope, entry, conversation, messageId) ?? (await this.#ref(entry, conversation, messageId));
        if (input.action === "reactions" && current.listReactions) {
          return { ok: true, action: "reactions", reactions: await current.listReactions(ref) };
        }
        if (!intent) throw new ChorusError("E_INVALID_INPUT", `unknown action ${String(input.action)}`);
        try {
          return await current.react(ref, intent);
        } catch (error) {
          throw toChorusError(error, `${entry.plugin.label} could not react`);
        }
      });
    });
  }

  /** A send with media or a location, or an outbox row's delivery that `MediaSends` answers; undefined: send the text. */
  async #sendMedia(
    entry: ChannelEntry,
    conversation: ConversationAddress,
    input: MessageToolInput,
    options: MessageCallOptions,
  ): Promise<SendResult | undefined> {
    const withMedia = input.media !== undefined || input.location !== undefined;
    if (!this.media) {
      if (withMedia) throw new ChorusError("E_UNSUPPORTED", "this gateway has no media store: media cannot be sent");
      return undefined;
    }
    const call = {
      entry,
      conversation,
      instance: () => this.registry.instanceOf(entry),
      ref: (messageId: string) => this.#ref(entry, conversation, messageId),
    };
    const sent = withMedia
      ? await this.media.send(call, input)
      : options.outboxId !== undefined
        ? await this.media.resume(call, {
            ...options,
            outboxId: options.outboxId,
            text: input.text ?? "",
            replyTo: input.replyTo,
          })
        : undefined;
    for (const ref of sent?.refs ?? []) this.index.put(ref);
    return sent?.result;
  }

  /** The full ref of a message id: from the index, else completed by the plugin. */
  async #ref(entry: ChannelEntry, conversation: ConversationAddress, messageId: string): Promise<MessageRef> {
    const key = { channel: entry.plugin.id, accountId: entry.accountId, conversationId: conversation.id, messageId };
    const known = await this.index.get(key);
    if (known) return known;
    const ref = await this.registry.instanceOf(entry).resolveMessageRef(conversation, messageId);
    this.index.put(ref);
    return ref;
  }

  /** Runs a plugin call; an untyped throw is a crash the supervisor hears about. */
  async #guard<T>(entry: ChannelEntry, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      entry.supervisor.reportFailure(error);
      throw entry.redactor.error(toChorusError(error, `${entry.plugin.label} failed`));
    }
  }
}

/** The queue key of one message: channel, account, conversation and message id. */
function messageKey(entry: ChannelEntry, conversationId: string, messageId: string): string {
  return JSON.stringify([entry.plugin.id, entry.accountId, conversationId, messageId]);
}

/** The reaction arguments of a `message` call, as core's rules read them. */
function reactionCall(input: MessageToolInput): { emoji?: string; remove?: boolean; clearAll?: boolean } {
  return {
    ...(input.emoji !== undefined ? { emoji: input.emoji } : {}),
    ...(input.remove !== undefined ? { remove: input.remove } : {}),
    ...(input.clearAll !== undefined ? { clearAll: input.clearAll } : {}),
  };
}
