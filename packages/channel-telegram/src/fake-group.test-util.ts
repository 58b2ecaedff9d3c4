import type { InboundEvent, InboundMessageEvent } from "@chorus/core";
import { type RunningChannel, type StartChannelOptions, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach } from "vitest";
import { telegramChannel } from "./index.js";
import { createFakeTelegram, type FakeTelegram, type FakeTelegramOptions } from "./testing/index.js";

/** The supergroup every test fake has. */
export const GROUP = -1001;
/** A person in it. */
export const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };

/** A fresh fake Bot API per test, and the plugin started against it on demand. */
export interface TelegramSession {
  readonly fake: FakeTelegram;
  readonly channel: RunningChannel | undefined;
  /** Starts the plugin with the fake's config plus the session's `base` and `extra` keys. */
  start(extra?: Record<string, unknown>, options?: Omit<StartChannelOptions, "config">): Promise<RunningChannel>;
}

/**
 * Registers the hooks of a test file: before each test a started fake (made with `options`) with
 * the supergroup `GROUP`; after it, the channel (when one runs) and the fake stopped.
 */
export function telegramSession(
  base: Record<string, unknown> = {},
  options: FakeTelegramOptions = {},
): TelegramSession {
  let fake: FakeTelegram | undefined;
  let channel: RunningChannel | undefined;
  beforeEach(async () => {
    fake = createFakeTelegram(options);
    await fake.start();
    fake.addChat({ id: GROUP, type: "supergroup", title: "Team" });
  });
  afterEach(async () => {
    try {
      await channel?.stop();
    } finally {
      channel = undefined;
      await fake?.close();
    }
  });
  return {
    get fake() {
      if (!fake) throw new Error("the fake starts before each test");
      return fake;
    },
    get channel() {
      return channel;
    },
    async start(extra = {}, options = {}) {
      channel = await startChannel(telegramChannel, { config: this.fake.config({ ...base, ...extra }), ...options });
      return channel;
    },
  };
}

/** Matches the message event with exactly this text. */
export const isText =
  (text: string) =>
  (event: InboundEvent): event is InboundMessageEvent =>
    event.type === "message" && event.text === text;
