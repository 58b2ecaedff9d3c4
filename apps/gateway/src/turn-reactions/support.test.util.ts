import type { ChannelPlugin, MessageRef } from "@chorus/core";
import {
  createMemoryChannel,
  createMemoryPlatform,
  type MemoryChannelOptions,
  type MemoryPlatform,
  type MemoryPlatformRules,
  type RunningChannel,
  startChannel,
} from "@chorus/testkit";
import type { Clock } from "./clock.js";
import type { ReactionLogger, ReactionTarget } from "./target.js";

/** The kinds of channel runtime reactions are tested against, as platform rules + declared flags. */
export const CHANNELS = {
  /** Discord/Slack-like: any number of reactions per message, removable one by one. */
  multi: { rules: {}, plugin: {} },
  /** WhatsApp/Telegram-like: one reaction per message, a new one replaces it. */
  single: { rules: { singleSlot: true }, plugin: { reactions: { singleSlot: true } } },
  /** A closed set without 👀, 🛠️ or ✅ (fallbacks must be used). */
  closed: {
    rules: { vocabulary: ["👍", "❤️", "🔥", "🤔", "😱"] },
    plugin: { vocabulary: ["👍", "❤️", "🔥", "🤔", "😱"] },
  },
  /** Nextcloud-like: reactions cannot be removed. */
  addOnly: { rules: { addOnly: true }, plugin: { reactions: { addOnly: true, clearAll: false } } },
} satisfies Record<string, { rules: Partial<MemoryPlatformRules>; plugin: MemoryChannelOptions }>;

export type ChannelKind = keyof typeof CHANNELS;

const ANN = { id: "u-ann", name: "Ann Lee", phone: "+4915123456789" };

/** A started memory platform with one group, and the memory channel running against it. */
export interface ReactionWorld {
  platform: MemoryPlatform;
  channel: RunningChannel;
  plugin: ChannelPlugin<unknown>;
  /** A message Ann writes in the group, as the channel addresses it. */
  userMessage(text?: string): MessageRef;
  /** A message the bot sends in the group. */
  botMessage(text?: string): Promise<MessageRef>;
  /** `ref` as a reaction target on this channel. */
  target(ref: MessageRef): ReactionTarget;
  /** The bot's reactions on a message, as the platform holds them. */
  held(ref: MessageRef): string[];
  /** Method and decoded path of each reaction request the platform answered, oldest first. */
  reactionRequests(): string[];
  close(): Promise<void>;
}

/** Opens a platform with `kind`'s rules and starts a memory channel declaring the same flags. */
export async function openWorld(kind: ChannelKind, overrides: { plugin?: MemoryChannelOptions } = {}) {
  const spec = CHANNELS[kind];
  const platform = createMemoryPlatform({ rules: spec.rules });
  await platform.start();
  platform.addConversation({ id: "family", kind: "group", title: "Family", members: [ANN] });
  let channel: RunningChannel;
  const plugin = createMemoryChannel({ ...spec.plugin, ...overrides.plugin }) as ChannelPlugin<unknown>;
  try {
    channel = await startChannel(plugin, {
      config: { baseUrl: platform.url, token: platform.token, pollWaitMs: 1000, retries: 0 },
    });
  } catch (error) {
    await platform.close();
    throw error;
  }
  const refOf = (messageId: string): MessageRef => ({
    channel: "memory",
    accountId: "default",
    conversationId: "family",
    messageId,
    fromBot: false,
  });
  const world: ReactionWorld = {
    platform,
    channel,
    plugin,
    userMessage: (text = "@Chorus are you there?") =>
      refOf(platform.userSends({ conversationId: "family", senderId: ANN.id, text, mentions: ["bot"] }).id),
    botMessage: (text = "On it.") => channel.instance.send({ id: "family" }, { text }),
    target: (ref) => ({ plugin, instance: channel.instance, ref }),
    held: (ref) => platform.botReactions(ref.messageId),
    reactionRequests: () =>
      platform.server.requests
        .filter((r) => r.path.includes("/reactions"))
        .map((r) => `${r.method} ${decodeURIComponent(r.path)}`),
    close: async () => {
      await channel.stop();
      await platform.close();
    },
  };
  return world;
}

/** Timers that only run when the test moves time forward. */
export class ManualClock implements Clock {
  #now = 0;
  #next = 1;
  readonly #timers = new Map<number, { at: number; run: () => void }>();

  setTimeout(run: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + ms, run });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, running every timer that falls due, in time order. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, t]) => t.at <= end).sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      const [id, timer] = due;
      this.#timers.delete(id);
      this.#now = timer.at;
      timer.run();
    }
    this.#now = end;
  }
}

/** A logger that keeps what was logged, to assert that failures are reported. */
export function recordingLogger(): ReactionLogger & { lines: { level: string; fields: unknown; message?: string }[] } {
  const lines: { level: string; fields: unknown; message?: string }[] = [];
  const log =
    (level: string) =>
    (fields: unknown, message?: string): void => {
      lines.push({ level, fields, ...(message !== undefined ? { message } : {}) });
    };
  return { lines, debug: log("debug"), warn: log("warn") } as ReactionLogger & { lines: typeof lines };
}
