import {
  CHORUS_API_VERSION,
  type ChannelCapabilities,
  type ChannelContext,
  type ChannelInstance,
  type ChannelPlugin,
  type ChannelStatus,
  ChorusError,
  defineChannel,
  defineVocabulary,
  type MessageRef,
  type ReactionCapabilities,
  splitText,
  type VocabularyEntry,
} from "@chorus/core";
import { MemoryClient } from "./client.js";
import { type MemoryConfig, memoryConfigSchema } from "./config.js";
import { messageRef } from "./inbound.js";
import { EventPoller } from "./poller.js";
import { MemoryReactions } from "./reactions.js";
import type { WireMessage, WireUser } from "./wire.js";

export interface MemoryChannelOptions {
  /** Channel id; `memory` unless several variants are loaded side by side. */
  id?: string;
  label?: string;
  /** The reaction flags this plugin declares (they should match the platform's rules). */
  reactions?: Partial<Omit<ReactionCapabilities, "vocabulary">>;
  /** A closed reaction vocabulary, in platform form, with what maps onto each entry. */
  vocabulary?: readonly (string | VocabularyEntry)[];
  maxTextLength?: number;
}

/** Creates the synthetic in-memory channel plugin with the given declared flags. */
export function createMemoryChannel(options: MemoryChannelOptions = {}): ChannelPlugin<MemoryConfig> {
  const vocabulary = options.vocabulary ? defineVocabulary(options.vocabulary) : undefined;
  const label = options.label ?? "Memory";
  const capabilities: ChannelCapabilities = {
    chatTypes: ["direct", "group"],
    reactions: {
      clearAll: true,
      singleSlot: false,
      tapbackOnly: false,
      addOnly: false,
      list: true,
      ...options.reactions,
      ...(vocabulary ? { vocabulary: vocabulary.names } : {}),
    },
    typing: true,
    inboundReactions: true,
    replies: true,
    threads: true,
    maxTextLength: options.maxTextLength ?? 2000,
  };

  return defineChannel<MemoryConfig>({
    id: options.id ?? "memory",
    apiVersion: CHORUS_API_VERSION,
    label,
    capabilities,
    ...(vocabulary ? { vocabulary } : {}),
    configSchema: memoryConfigSchema,
    create: (ctx) => createInstance(ctx, { id: options.id ?? "memory", label, capabilities, vocabulary }),
  });
}

interface InstanceSpec {
  id: string;
  label: string;
  capabilities: ChannelCapabilities;
  vocabulary: ReturnType<typeof defineVocabulary> | undefined;
}

function createInstance(ctx: ChannelContext<MemoryConfig>, spec: InstanceSpec): ChannelInstance {
  const client = new MemoryClient(ctx.config);
  let bot: WireUser | undefined;
  const botId = () => {
    if (!bot) throw new ChorusError("E_DISABLED", `${spec.label} is not started`);
    return bot.id;
  };
  const inbound = () => ({ channel: spec.id, accountId: ctx.accountId, botId: botId() });
  const reactions = new MemoryReactions(client, botId, spec.label, spec.vocabulary);
  const poller = new EventPoller(client, ctx, inbound);
  let status: ChannelStatus = { state: "stopped" };

  return {
    async start() {
      status = { state: "starting" };
      try {
        bot = await client.request<WireUser>("GET", "/v1/me", { signal: ctx.signal });
        await poller.start();
      } catch (error) {
        status = { state: "degraded", detail: (error as Error).message };
        throw error;
      }
      status = { state: "running", detail: `connected as ${bot.name}` };
    },
    async stop() {
      await poller.stop();
      status = { state: "stopped" };
    },
    async send(conversation, message) {
      const parts = splitText(message.text, spec.capabilities.maxTextLength);
      let first: MessageRef | undefined;
      for (const [index, text] of parts.entries()) {
        const sent = await client.request<WireMessage>(
          "POST",
          `/v1/conversations/${encodeURIComponent(conversation.id)}/messages`,
          {
            body: {
              text,
              ...(index === 0 && message.replyTo ? { replyToId: message.replyTo.messageId } : {}),
              ...(conversation.threadId !== undefined ? { threadId: conversation.threadId } : {}),
              ...(index === 0 && message.mentions ? { mentions: message.mentions } : {}),
            },
          },
        );
        first ??= messageRef(sent, inbound());
      }
      return first as MessageRef;
    },
    react: (ref, intent) => reactions.react(ref, intent),
    ...(spec.capabilities.reactions.list ? { listReactions: (ref: MessageRef) => reactions.list(ref) } : {}),
    async setTyping(conversation, on) {
      await client.request("POST", `/v1/conversations/${encodeURIComponent(conversation.id)}/typing`, { body: { on } });
    },
    async resolveMessageRef(conversation, messageId) {
      const message = await client.request<WireMessage>("GET", `/v1/messages/${encodeURIComponent(messageId)}`);
      if (message.conversationId !== conversation.id) {
        throw new ChorusError("E_MESSAGE_NOT_FOUND", `message ${messageId} is not in conversation ${conversation.id}`);
      }
      return messageRef(message, inbound());
    },
    status: () => (status.state === "running" ? (poller.status() ?? status) : status),
    identity: () =>
      bot ? { id: bot.id, name: bot.name, ...(bot.phone ? { e164: bot.phone } : {}), isBot: true } : undefined,
  };
}
