import { type ChatType, type ConversationAddress, toChorusError, type z } from "@chorus/core";
import type { Logger } from "pino";
import type { ChannelEntry } from "../channels/index.js";
import type { typingModeSchema } from "../config/index.js";
import { SETTLED } from "../support/index.js";

/** `agents.defaults.typingMode`: when the typing indicator shows during a turn. */
export type TypingMode = z.output<typeof typingModeSchema>;

/**
 * The typing mode of a turn (DESIGN §4): `agents.defaults.typingMode` when set; otherwise
 * `message` (only while the reply is sent) for a group turn without a mention, else `instant`.
 */
export function typingModeFor(configured: TypingMode | undefined, chatType: ChatType, mentioned: boolean): TypingMode {
  return configured ?? (chatType === "group" && !mentioned ? "message" : "instant");
}

export interface TurnTypingOptions {
  entry: Pick<ChannelEntry, "plugin" | "supervisor">;
  conversation: ConversationAddress;
  mode: TypingMode;
  logger: Pick<Logger, "debug">;
}

/**
 * The typing indicator of one turn: on at once (`instant`, `thinking`) or just before the reply
 * (`message`), off when the turn ends unless the mode is `never`. Typing is cosmetic: a failure is
 * logged at debug level, and it never delays the model call.
 */
export class TurnTyping {
  #started: Promise<void> | undefined;

  constructor(private readonly options: TurnTypingOptions) {}

  /** When the turn starts: switches typing on for `instant` and `thinking`, without waiting for the platform. */
  start(): void {
    const { mode } = this.options;
    if (mode === "instant" || mode === "thinking") this.#started = this.#set(true);
  }

  /** Just before the reply is sent: switches typing on for `message`. */
  beforeReply(): Promise<void> {
    return this.options.mode === "message" ? this.#set(true) : SETTLED;
  }

  /** When the turn ends (replied or silent): switches typing off, after the start call settled. */
  async end(): Promise<void> {
    await this.#started;
    if (this.options.mode !== "never") await this.#set(false);
  }

  async #set(on: boolean): Promise<void> {
    const { entry, conversation, logger } = this.options;
    if (!entry.plugin.capabilities.typing) return;
    try {
      await entry.supervisor.instance?.setTyping(conversation, on);
    } catch (error) {
      logger.debug({ err: toChorusError(error).message }, "typing indicator failed");
    }
  }
}
