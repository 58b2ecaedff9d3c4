import type { ChatType, MessageRef, ReactionLevel } from "@chorus/core";
import type { MessagesConfig } from "../config/index.js";
import { SETTLED } from "../support/index.js";
import { AckReactions, ackApplies, type TurnOutcome } from "./ack.js";
import type { Clock } from "./clock.js";
import { StatusReactions } from "./status.js";
import type { AgentReaction, ReactionLogger, ReactionTarget } from "./target.js";

export interface TurnReactionsOptions {
  /** The triggering message and its channel. */
  target: ReactionTarget;
  messages: Pick<
    MessagesConfig,
    "ackReaction" | "ackReactionScope" | "ackReactionAfter" | "doneReaction" | "statusReactions"
  >;
  chatType: ChatType;
  /** The bot was mentioned (or replied to) in the triggering message. */
  mentioned: boolean;
  /** The channel's resolved `reactionLevel` (`resolveReactionLevel`); `off` means no runtime reactions. */
  reactionLevel: ReactionLevel;
  logger?: ReactionLogger;
  clock?: Clock;
}

/**
 * The runtime's own reactions of one turn: where the ack scope applies, the ack reaction, or the
 * status reactions instead when `messages.statusReactions.enabled` (their queued state is the
 * ack). Inert where the scope does not apply.
 */
export class TurnReactions {
  readonly #target: ReactionTarget;
  readonly #ack: AckReactions | undefined;
  readonly #status: StatusReactions | undefined;

  constructor(options: TurnReactionsOptions) {
    const { messages, target } = options;
    this.#target = target;
    const applies = ackApplies(messages.ackReactionScope, options.chatType, options.mentioned, options.reactionLevel);
    if (!applies) return;
    const logger = options.logger;
    if (messages.statusReactions.enabled) {
      const status = messages.statusReactions;
      this.#status = new StatusReactions({
        target,
        emojis: status.emojis,
        debounceMs: status.debounceMs,
        stallMs: status.stallMs,
        ...(logger ? { logger } : {}),
        ...(options.clock ? { clock: options.clock } : {}),
      });
      return;
    }
    this.#ack = new AckReactions({
      emoji: messages.ackReaction,
      after: messages.ackReactionAfter,
      doneEmoji: messages.doneReaction,
      ...(logger ? { logger } : {}),
    });
  }

  /** True when this turn shows reactions at all. */
  get active(): boolean {
    return this.#ack !== undefined || this.#status !== undefined;
  }

  /** Places the ack (or the queued status) on the triggering message; returns at once. */
  begin(): void {
    this.#ack?.begin(this.#target, true);
    this.#status?.set("queued");
  }

  /**
   * Resolves once what `begin` placed reached the platform. The agent's own `react` on the same
   * message waits for it, so on single-slot channels the agent's reaction is the one that stays.
   */
  settled(): Promise<unknown> {
    // One of the two at most (see the constructor): no promise of its own on a turn's hot path.
    return this.#ack?.settled() ?? this.#status?.idle() ?? SETTLED;
  }

  /** The turn is now calling the model (`thinking`) or running a tool (`tool`); status reactions only. */
  progress(state: "thinking" | "tool"): void {
    this.#status?.set(state);
  }

  /** `trackToolCalls`: the rest of the turn's status reactions go to `ref`. */
  retarget(ref: MessageRef): void {
    this.#status?.retarget(ref);
  }

  /** A `react` call the agent made during the turn, on message `messageId`. */
  agentReacted(messageId: string, reaction: AgentReaction): void {
    this.#ack?.agentReacted(messageId, reaction);
    this.#status?.agentReacted(messageId, reaction);
  }

  /** Ends the turn's reactions; nothing is left in a working state. Never throws. */
  end(outcome: TurnOutcome): Promise<void> {
    return this.#ack?.end(outcome) ?? this.#status?.finish(outcome === "noreply" ? undefined : outcome) ?? SETTLED;
  }
}
