import type { ChannelInstance, ChannelPlugin, ConversationAddress, MessageRef } from "@chorus/core";

/** One running fake platform, prepared for the contract suite by the plugin's author. */
export interface ContractFixture {
  /** The `channels.<id>` block that points the plugin at this fake (validated by its schema). */
  config: unknown;
  /** A conversation the bot may write and react in. */
  conversation: ConversationAddress;
  /** A fresh message the bot may react to; by default the bot sends one with `instance.send`. */
  createMessage?(instance: ChannelInstance, index: number): Promise<MessageRef>;
  /** The bot's reactions on a message as the fake platform holds them, in platform form. */
  botReactions(ref: MessageRef): readonly string[] | Promise<readonly string[]>;
  /** Adds a reaction by someone else, to check that clearing never touches it. */
  addForeignReaction?(ref: MessageRef, emoji: string): void | Promise<void>;
  /** Someone else's reactions on a message, in platform form. */
  foreignReactions?(ref: MessageRef): readonly string[] | Promise<readonly string[]>;
  close?(): void | Promise<void>;
}

/** Emoji the suite reacts with. Both must be allowed on the channel and mean different kinds. */
export interface ContractEmoji {
  first: string;
  second: string;
  /** An emoji the channel cannot represent; checked where it declares a vocabulary. */
  unsupported: string;
  /** Another spelling of `first` (shortcode, other selector) that must land on the same reaction. */
  firstAlias?: string;
}

export interface ReactionContractOptions<TConfig> {
  plugin: ChannelPlugin<TConfig>;
  /** Starts the fake platform; called once per suite run. */
  setup(): Promise<ContractFixture>;
  emoji?: Partial<ContractEmoji>;
  /** Where the instance keeps state; a fresh temp dir by default. */
  stateDir?: string;
  accountId?: string;
}

export interface ContractCaseResult {
  name: string;
  ok: boolean;
  /** Why the case failed: what the flags promised and what the platform showed. */
  message?: string;
}

export const DEFAULT_CONTRACT_EMOJI: ContractEmoji = {
  first: "👍",
  second: "❤️",
  unsupported: "🦜",
  firstAlias: ":thumbsup:",
};
