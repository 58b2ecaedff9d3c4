import { type ChatType, type ReactionLevel, runtimeMayReact } from "@chorus/core";
import type { MessagesConfig } from "../config/index.js";
import { SETTLED } from "../support/index.js";
import { addFirstAccepted, tryReaction } from "./attempt.js";
import type { AgentReaction, ReactionLogger, ReactionTarget } from "./target.js";
import { ACK_FALLBACKS, candidatesFor, sameReaction } from "./vocabulary.js";

export type AckScope = MessagesConfig["ackReactionScope"];

/** How a turn ended: a reply was sent, the agent stayed silent (`NO_REPLY`), or it failed. */
export type TurnOutcome = "done" | "noreply" | "error";

/**
 * Whether the ack reaction goes on a triggering message, from `messages.ackReactionScope`, at the
 * channel's resolved `reactionLevel` (where the runtime may not react, never).
 */
export function ackApplies(
  scope: AckScope,
  chatType: ChatType,
  mentioned: boolean,
  reactionLevel: ReactionLevel,
): boolean {
  if (!runtimeMayReact(reactionLevel)) return false;
  switch (scope) {
    case "all":
      return true;
    case "direct":
      return chatType === "direct";
    case "group-all":
      return chatType === "group";
    case "group-mentions":
      return chatType === "group" && mentioned;
    case "off":
      return false;
  }
}

export interface AckReactionsOptions {
  /** `messages.ackReaction`; empty for no ack. */
  emoji: string;
  /** `messages.ackReactionAfter`: remove the ack when the turn ends, or replace it with `doneEmoji`. */
  after?: "remove" | "done";
  /** `messages.doneReaction`. */
  doneEmoji?: string;
  /** Tried in order where the ack emoji is not allowed. */
  fallbacks?: readonly string[];
  /** Tried in order where the done emoji is not allowed. */
  doneFallbacks?: readonly string[];
  logger?: ReactionLogger;
}

const NO_LOG: ReactionLogger = { debug: () => {}, warn: () => {} };

/**
 * The ack reaction of one turn (DESIGN §7): placed when the turn is triggered, removed (or
 * replaced by the done emoji) when it ends, also after `NO_REPLY` and errors. It never removes a
 * reaction the agent itself set on the message during the turn.
 */
export class AckReactions {
  readonly #options: AckReactionsOptions;
  readonly #logger: ReactionLogger;
  #target: ReactionTarget | undefined;
  #placing: Promise<string | undefined> | undefined;
  readonly #agent: AgentReaction[] = [];
  #ended = false;

  constructor(options: AckReactionsOptions) {
    this.#options = options;
    this.#logger = options.logger ?? NO_LOG;
  }

  /**
   * Starts placing the ack on `target.ref` when `applies` (see `ackApplies`); returns at once,
   * the platform call runs in the background. Add-only channels get no ack: it could not be
   * taken back.
   */
  begin(target: ReactionTarget, applies: boolean): void {
    if (this.#placing || this.#ended || !applies) return;
    if (target.plugin.capabilities.reactions.addOnly) {
      this.#logger.debug({ channel: target.ref.channel }, "no ack reaction: reactions cannot be removed here");
      return;
    }
    const candidates = candidatesFor(this.#options.emoji, target.plugin, this.#options.fallbacks ?? ACK_FALLBACKS);
    this.#target = target;
    this.#placing = addFirstAccepted(target, candidates, this.#logger, "ack");
  }

  /** Tells the ack about a `react` call the agent made during the turn (`messageId` it targeted). */
  agentReacted(messageId: string, reaction: AgentReaction): void {
    if (this.#target?.ref.messageId === messageId) this.#agent.push(reaction);
  }

  /** Resolves once the ack placed by `begin` reached the platform (or failed). */
  settled(): Promise<unknown> {
    return this.#placing ?? SETTLED;
  }

  /** Ends the turn: the ack is removed, or replaced by the done emoji after a reply when configured. */
  async end(outcome: TurnOutcome): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    const target = this.#target;
    const placed = await this.#placing;
    if (!target || placed === undefined) return;
    const singleSlot = target.plugin.capabilities.reactions.singleSlot;
    const agentOwns = this.#agentOwns(target, placed);
    // One slot that the agent's own reaction took over: nothing of the ack is left to touch.
    if (agentOwns && singleSlot) return;

    if (outcome === "done" && this.#options.after === "done") {
      const done = candidatesFor(
        this.#options.doneEmoji ?? "✅",
        target.plugin,
        this.#options.doneFallbacks ?? ["👍", "❤️"],
      ).filter((emoji) => !sameReaction(emoji, placed, target.plugin));
      const shown = await addFirstAccepted(target, done, this.#logger, "done");
      // One slot: the done emoji replaced the ack. Several: the ack goes now.
      if (shown !== undefined && singleSlot) return;
    }
    if (!agentOwns) await tryReaction(target, { emoji: placed, remove: true }, this.#logger, "ack removal");
  }

  /** True when an agent reaction during the turn makes the ack's slot or emoji the agent's. */
  #agentOwns(target: ReactionTarget, placed: string): boolean {
    if (target.plugin.capabilities.reactions.singleSlot) return this.#agent.length > 0;
    return this.#agent.some(
      (reaction) =>
        reaction.op === "clear" ||
        (reaction.emoji !== undefined && sameReaction(reaction.emoji, placed, target.plugin)),
    );
  }
}
