import type { MessageRef } from "@chorus/core";
import { DEFAULT_STATUS_EMOJIS } from "../config/index.js";
import { addFirstAccepted, tryReaction } from "./attempt.js";
import { type Clock, systemClock } from "./clock.js";
import type { AgentReaction, ReactionLogger, ReactionTarget } from "./target.js";
import { candidatesFor, sameReaction } from "./vocabulary.js";

/** A turn's progress as status reactions show it (DESIGN §7). */
export type StatusState = "queued" | "thinking" | "tool" | "done" | "error";

/** What a status reaction can show: a state, or the hint that the turn is stalling. */
export type StatusDisplay = StatusState | "stall";

/** Tried in order where a state's configured emoji is not allowed on the channel. */
export const STATUS_FALLBACKS: Readonly<Record<StatusDisplay, readonly string[]>> = {
  queued: ["👀", "👍"],
  thinking: ["🤔", "🤓", "❓"],
  tool: ["🔥", "⚡", "👨‍💻", "‼️"],
  done: ["👍", "❤️"],
  error: ["😱", "👎"],
  stall: ["🥱", "😨", "❓"],
};

export interface StatusReactionsOptions {
  /** The message the status shows on (the one being answered), and its channel. */
  target: ReactionTarget;
  /** `messages.statusReactions.emojis`; missing states use the defaults. */
  emojis?: Partial<Record<StatusDisplay, string>>;
  /** Defaults to the channel's `singleSlot` flag: each state replaces the last instead of add + remove. */
  singleSlot?: boolean;
  /** A state shorter than this never reaches the platform (the first state, done and error apply at once). */
  debounceMs?: number;
  /** No `set` for this long shows the stall emoji; 0 turns the hint off. */
  stallMs?: number;
  logger?: ReactionLogger;
  clock?: Clock;
}

const NO_LOG: ReactionLogger = { debug: () => {}, warn: () => {} };
const isTerminal = (state: StatusDisplay) => state === "done" || state === "error";

/**
 * Status reactions of one turn: queued → thinking → tool → done/error on the message being
 * answered, debounced, with a stall hint; on single-slot channels each replaces the last,
 * elsewhere the new one is added and the previous removed. Platform calls run one at a time in
 * the order asked; failures are logged and never thrown. `finish` never leaves a non-terminal state.
 */
export class StatusReactions {
  readonly #emojis: Record<StatusDisplay, string>;
  readonly #singleSlot: boolean;
  readonly #debounceMs: number;
  readonly #stallMs: number;
  readonly #logger: ReactionLogger;
  readonly #clock: Clock;
  readonly #disabled: boolean;
  // Decided when `set` is called.
  #requested: StatusDisplay | undefined;
  #pending: unknown;
  #stall: unknown;
  #terminal = false;
  #finished = false;
  // Changed only inside the queue of platform calls, so they always describe the platform.
  #target: ReactionTarget;
  #shown: { ref: MessageRef; emoji: string } | undefined;
  #yielded = false;
  #queue: Promise<void> = Promise.resolve();

  constructor(options: StatusReactionsOptions) {
    this.#target = options.target;
    this.#emojis = { ...DEFAULT_STATUS_EMOJIS, ...options.emojis };
    this.#singleSlot = options.singleSlot ?? options.target.plugin.capabilities.reactions.singleSlot;
    this.#debounceMs = Math.max(0, options.debounceMs ?? 700);
    this.#stallMs = Math.max(0, options.stallMs ?? 30_000);
    this.#logger = options.logger ?? NO_LOG;
    this.#clock = options.clock ?? systemClock;
    // A status that can never be removed would be left stuck: add-only channels get none.
    this.#disabled = options.target.plugin.capabilities.reactions.addOnly;
  }

  /** Moves the turn to `state`: the first state, done and error show at once, the rest after the debounce. */
  set(state: StatusState): void {
    if (this.#disabled || this.#finished || this.#terminal) return;
    this.#cancelPending();
    if (isTerminal(state)) {
      this.#terminal = true;
      this.#cancelStall();
      this.#request(state);
      return;
    }
    this.#armStall();
    if (this.#requested === undefined || this.#debounceMs === 0) {
      this.#request(state);
      return;
    }
    if (state === this.#requested) return;
    this.#pending = this.#clock.setTimeout(() => {
      this.#pending = undefined;
      this.#request(state);
    }, this.#debounceMs);
  }

  /** Shows the rest of the turn's states on `ref` (`trackToolCalls`), cleaning the previous message. */
  retarget(ref: MessageRef): void {
    if (this.#disabled || this.#finished) return;
    this.#enqueue(async () => {
      const old = this.#target.ref;
      if (old.messageId === ref.messageId && old.conversationId === ref.conversationId) return;
      await this.#clear();
      this.#target = { ...this.#target, ref };
      this.#yielded = false;
      if (this.#requested !== undefined) await this.#show(this.#requested);
    });
  }

  /**
   * Tells the status about a `react` call the agent made during the turn: on single-slot
   * channels the agent's reaction owns the message's slot from then on, elsewhere its emoji is
   * never removed by a later state.
   */
  agentReacted(messageId: string, reaction: AgentReaction): void {
    if (this.#disabled) return;
    this.#enqueue(async () => {
      if (messageId !== this.#target.ref.messageId) return;
      if (this.#singleSlot) {
        this.#yielded = true;
        this.#shown = undefined;
        return;
      }
      const shown = this.#shown;
      if (!shown) return;
      const touched = reaction.emoji !== undefined && sameReaction(reaction.emoji, shown.emoji, this.#target.plugin);
      if (reaction.op === "clear" || touched) this.#shown = undefined;
    });
  }

  /**
   * Ends the turn's status: with `final`, that state is set first; without a terminal state the
   * current reaction is removed. Resolves when every platform call is done.
   */
  async finish(final?: "done" | "error"): Promise<void> {
    if (final !== undefined) this.set(final);
    if (!this.#finished) {
      this.#finished = true;
      this.#cancelPending();
      this.#cancelStall();
      if (!this.#terminal) this.#enqueue(() => this.#clear());
    }
    await this.idle();
  }

  /** Resolves once the platform calls asked for so far are done. */
  idle(): Promise<void> {
    return this.#queue;
  }

  #request(state: StatusDisplay): void {
    this.#requested = state;
    this.#enqueue(() => this.#show(state));
  }

  #enqueue(step: () => Promise<void>): void {
    this.#queue = this.#queue.then(step).catch((error: unknown) => {
      this.#logger.warn({ err: (error as Error).message }, "status reaction step failed");
    });
  }

  async #show(state: StatusDisplay): Promise<void> {
    if (this.#yielded) return;
    const target = this.#target;
    const previous = this.#shown;
    const candidates = candidatesFor(this.#emojis[state], target.plugin, STATUS_FALLBACKS[state]);
    if (previous && candidates[0] !== undefined && sameReaction(previous.emoji, candidates[0], target.plugin)) return;
    const placed = await addFirstAccepted(target, candidates, this.#logger, `status ${state}`);
    if (placed === undefined) {
      // A final state that cannot be shown must not leave the last working state behind.
      if (isTerminal(state)) await this.#clear();
      return;
    }
    this.#shown = { ref: target.ref, emoji: placed };
    if (!previous || sameReaction(previous.emoji, placed, target.plugin)) return;
    // One slot: the add replaced it. Several: take the previous state away.
    if (!this.#singleSlot) {
      await tryReaction(
        { ...target, ref: previous.ref },
        { emoji: previous.emoji, remove: true },
        this.#logger,
        "status",
      );
    }
  }

  /** Removes the status reaction the bot shows, if any. */
  async #clear(): Promise<void> {
    const shown = this.#shown;
    this.#shown = undefined;
    if (!shown || this.#yielded) return;
    await tryReaction(
      { ...this.#target, ref: shown.ref },
      { emoji: shown.emoji, remove: true },
      this.#logger,
      "status removal",
    );
  }

  #armStall(): void {
    if (this.#stallMs === 0) return;
    this.#cancelStall();
    this.#stall = this.#clock.setTimeout(() => {
      this.#stall = undefined;
      if (this.#finished || this.#terminal) return;
      this.#cancelPending();
      this.#request("stall");
    }, this.#stallMs);
  }

  #cancelPending(): void {
    if (this.#pending !== undefined) this.#clock.clearTimeout(this.#pending);
    this.#pending = undefined;
  }

  #cancelStall(): void {
    if (this.#stall !== undefined) this.#clock.clearTimeout(this.#stall);
    this.#stall = undefined;
  }
}
