import {
  CHORUS_API_VERSION,
  type ChannelContext,
  type ChannelPlugin,
  defineChannel,
  type InboundEvent,
  type MessageRef,
  z,
} from "@chorus/core";

/** The id of the benchmark channel. */
export const BENCH_CHANNEL_ID = "bench";

/** A channel whose platform is the benchmark itself: `emit` is the running instance's `ctx.emit`. */
export interface BenchChannel {
  plugin: ChannelPlugin<unknown>;
  /** Hands an event to the gateway exactly as a plugin does (its `ChannelContext.emit`). */
  emit(event: InboundEvent): Promise<void>;
  /** Replies and reactions the gateway made through the channel. */
  readonly counts: { sent: number; reactions: number };
}

/**
 * An in-process channel plugin with no platform behind it: sending, reacting and typing cost
 * nothing, so what a benchmark times around it is the gateway's own work.
 */
export function createBenchChannel(): BenchChannel {
  let context: ChannelContext<unknown> | undefined;
  const counts = { sent: 0, reactions: 0 };
  const plugin = defineChannel<unknown>({
    id: BENCH_CHANNEL_ID,
    apiVersion: CHORUS_API_VERSION,
    label: "Bench",
    capabilities: {
      chatTypes: ["direct", "group"],
      reactions: { clearAll: true, singleSlot: false, tapbackOnly: false, addOnly: false, list: false },
      typing: true,
      inboundReactions: false,
      replies: true,
      threads: false,
      maxTextLength: 4000,
    },
    configSchema: z.object({}),
    create(ctx) {
      context = ctx;
      return {
        async start() {},
        async stop() {},
        async send(conversation) {
          counts.sent++;
          const ref: MessageRef = {
            channel: BENCH_CHANNEL_ID,
            accountId: ctx.accountId,
            conversationId: conversation.id,
            messageId: `bot-${counts.sent}`,
            fromBot: true,
          };
          return ref;
        },
        async react(_ref, intent) {
          counts.reactions++;
          return {
            ok: true,
            action: "react",
            op: intent.op,
            ...(intent.emoji !== undefined ? { emoji: intent.emoji } : {}),
          };
        },
        async setTyping() {},
        async resolveMessageRef(conversation, messageId) {
          return { channel: BENCH_CHANNEL_ID, accountId: ctx.accountId, conversationId: conversation.id, messageId };
        },
        status: () => ({ state: "running" }),
      };
    },
  });
  return {
    plugin,
    emit(event) {
      if (!context) throw new Error("the bench channel is not running; start its supervisor first");
      return context.emit(event);
    },
    counts,
  };
}
