import { Redactor, secretsOf } from "@chorus/channel-kit";
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
  MEDIA_KINDS,
  type MediaCapabilities,
  type MessageRef,
  type ReactionCapabilities,
  type RefScope,
  type VocabularyEntry,
} from "@chorus/core";
import { createMemoryClient } from "./client.js";
import { type MemoryConfig, memoryConfigSchema } from "./config.js";
import { messageRef } from "./inbound.js";
import { createDownload } from "./media.js";
import { createOutbound } from "./outbound.js";
import { EventPoller } from "./poller.js";
import { MemoryReactions } from "./reactions.js";
import { DEFAULT_PLATFORM_RULES } from "./rules.js";
import { uploadMedium } from "./upload.js";
import type { WireMessage, WireUser } from "./wire.js";

/**
 * What the memory channel declares by default: every kind both ways, captions, albums of 4, and
 * the platform's upload limit; media people send can be downloaded up to 10 MB.
 */
export const MEMORY_MEDIA: MediaCapabilities = Object.freeze<MediaCapabilities>({
  send: [...MEDIA_KINDS],
  receive: [...MEDIA_KINDS, "contact" as const],
  maxSendBytes: DEFAULT_PLATFORM_RULES.maxUploadBytes,
  maxReceiveBytes: 10 * 1024 * 1024,
  caption: true,
  perMessage: DEFAULT_PLATFORM_RULES.maxMediaPerMessage,
});

export interface MemoryChannelOptions {
  /** Channel id; `memory` unless several variants are loaded side by side. */
  id?: string;
  label?: string;
  /** The reaction flags this plugin declares (they should match the platform's rules). */
  reactions?: Partial<Omit<ReactionCapabilities, "vocabulary">>;
  /** A closed reaction vocabulary, in platform form, with what maps onto each entry. */
  vocabulary?: readonly (string | VocabularyEntry)[] | undefined;
  maxTextLength?: number;
  /** The media flags this plugin declares, over `MEMORY_MEDIA`; `false`: it declares none (and has no `download`). */
  media?: Partial<MediaCapabilities> | false;
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
    ...(options.media === false ? {} : { media: { ...MEMORY_MEDIA, ...options.media } }),
  };

  return defineChannel<MemoryConfig>({
    id: options.id ?? "memory",
    apiVersion: CHORUS_API_VERSION,
    label,
    capabilities,
    ...(vocabulary ? { vocabulary } : {}),
    configSchema: memoryConfigSchema,
    secretKeys: MEMORY_SECRET_KEYS,
    create: (ctx) => createInstance(ctx, { id: options.id ?? "memory", label, capabilities, vocabulary }),
  });
}

/** The config keys of the memory channel whose values are secrets. */
const MEMORY_SECRET_KEYS = ["token"] as const;

interface InstanceSpec {
  id: string;
  label: string;
  capabilities: ChannelCapabilities;
  vocabulary: ReturnType<typeof defineVocabulary> | undefined;
}

function createInstance(context: ChannelContext<MemoryConfig>, spec: InstanceSpec): ChannelInstance {
  const redactor = new Redactor(secretsOf(context.config, MEMORY_SECRET_KEYS));
  const ctx = { ...context, logger: redactor.logger(context.logger) };
  const client = createMemoryClient(ctx.config, ctx.signal, redactor);
  let bot: WireUser | undefined;
  const botId = () => {
    if (!bot) throw new ChorusError("E_DISABLED", `${spec.label} is not started`);
    return bot.id;
  };
  const inbound = (): RefScope => ({ channel: spec.id, accountId: ctx.accountId, botId: botId() });
  const reactions = new MemoryReactions(client, botId, spec.label, spec.vocabulary);
  const poller = new EventPoller(client, ctx, inbound);
  const media = spec.capabilities.media;
  const upload = (medium: Parameters<typeof uploadMedium>[0]) =>
    uploadMedium(medium, { config: ctx.config, maxBytes: media?.maxSendBytes ?? 0, signal: ctx.signal, redactor });
  let status: ChannelStatus = { state: "stopped" };

  return {
    async start() {
      status = { state: "starting" };
      try {
        bot = await client.request<WireUser>({ method: "GET", path: "/v1/me", operation: "read the bot's account" });
        await poller.start();
      } catch (error) {
        const reason = redactor.error(error);
        status = { state: "degraded", detail: reason.message };
        throw reason;
      }
      status = { state: "running", detail: `connected as ${bot.name}` };
    },
    async stop() {
      await poller.stop();
      status = { state: "stopped" };
    },
    ...createOutbound({ client, scope: inbound, maxTextLength: spec.capabilities.maxTextLength, upload }),
    ...(media && media.receive.length > 0 ? createDownload(ctx.config, ctx.signal, redactor) : {}),
    react: (ref, intent) => reactions.react(ref, intent),
    ...(spec.capabilities.reactions.list ? { listReactions: (ref: MessageRef) => reactions.list(ref) } : {}),
    async setTyping(conversation, on) {
      await client.request({
        method: "POST",
        path: `/v1/conversations/${encodeURIComponent(conversation.id)}/typing`,
        json: { on },
        idempotent: true,
      });
    },
    async resolveMessageRef(conversation, messageId) {
      const message = await client.request<WireMessage>({
        method: "GET",
        path: `/v1/messages/${encodeURIComponent(messageId)}`,
      });
      if (message.conversationId !== conversation.id) {
        throw new ChorusError("E_MESSAGE_NOT_FOUND", `message ${messageId} is not in conversation ${conversation.id}`);
      }
      return messageRef(message, inbound());
    },
    status: () => redactor.status(status.state === "running" ? (poller.status() ?? status) : status),
    identity: () =>
      bot ? { id: bot.id, name: bot.name, ...(bot.phone ? { e164: bot.phone } : {}), isBot: true } : undefined,
  };
}
