import type { ChannelInstance, ChannelPlugin, Logger, MessageRef, ReactionOp } from "@chorus/core";

/** The part of a channel plugin that runtime reactions read. */
export type ReactionPlugin = Pick<ChannelPlugin, "label" | "capabilities" | "vocabulary">;

/** The part of a running channel instance that runtime reactions use. */
export type ReactionInstance = Pick<ChannelInstance, "react">;

/** A message the runtime reacts on, and the channel that reaches it. */
export interface ReactionTarget {
  plugin: ReactionPlugin;
  instance: ReactionInstance;
  ref: MessageRef;
}

/** What the agent's own `react` call did (its `message` tool result). */
export interface AgentReaction {
  op: ReactionOp;
  /** The emoji it added or removed, in the platform's form. */
  emoji?: string;
}

/** Where runtime reactions report failures; a pino logger fits. */
export type ReactionLogger = Pick<Logger, "debug" | "warn">;
