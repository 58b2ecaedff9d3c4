import type {
  AttachmentKind,
  ChannelInstance,
  ChannelPlugin,
  ChannelStore,
  ContactCard,
  ConversationAddress,
  GeoLocation,
  MediaKind,
  MessageRef,
} from "@chorus/core";
import type { PlatformFault } from "../fake-server/faults.js";

/** One running fake platform, prepared for the reaction contract by the plugin's author. */
export interface ContractFixture {
  /** The `channels.<id>` block that points the plugin at this fake (validated by its schema). */
  config: unknown;
  /**
   * For a channel whose credentials come from linking (`chorus channels login`) and live in its
   * store: writes what a finished login stores into `store`, before each instance of the run
   * (and the unreachable-platform probe) starts on it.
   */
  linkAccount?(store: ChannelStore): void | Promise<void>;
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

/**
 * A fake platform prepared for the whole channel contract: reactions, restarts, inbound events,
 * faults and secrets. Every hook acts on the platform side, as the real platform would.
 */
export interface ChannelContractFixture extends ContractFixture {
  /**
   * Someone other than the bot writes `text` in `conversation`; the platform delivers it to the bot.
   * `hooksUrl` is where the running instance's webhook routes are served (`<hooksUrl>/hooks/<id>/…`),
   * for platforms whose webhook URL an admin registers by hand (it stays the same across restarts).
   */
  userSends(text: string, hooksUrl: string): void | Promise<void>;
  /**
   * For a channel whose platform runs inside the host (the gateway's webchat): why nothing can be
   * redelivered, garbled or cut off between them. The hooks for those (`redeliverLast`,
   * `deliverUnparseable`, `fault`, `heal`, `unreachableConfig`) may then be left out, and the cases
   * check what such a channel must do instead: no replay after a restart, typed errors for bad
   * addresses, statuses that stay well-formed.
   */
  inProcess?: string;
  /** The platform delivers its last event to the bot again, as it does when an answer was lost. */
  redeliverLast?(hooksUrl: string): void | Promise<void>;
  /** The platform delivers, where an event belongs, a payload the plugin cannot parse. */
  deliverUnparseable?(hooksUrl: string): void | Promise<void>;
  /**
   * Posts to the running instance a webhook delivery carrying `text` with a forged signature or
   * secret; resolves with the HTTP status it answered. Absent for channels without webhooks.
   */
  forgeWebhook?(hooksUrl: string, text: string): Promise<number>;
  /** From now on every request and connection to the platform misbehaves like `kind`, until `heal()`. */
  fault?(kind: PlatformFault): void | Promise<void>;
  /** Ends the fault: the platform answers normally again. */
  heal?(): void | Promise<void>;
  /** The secret values in `config` (tokens, passwords, signing secrets); none may ever be reported. */
  secrets: readonly string[];
  /** The same `channels.<id>` block with the same secrets, pointed at a loopback port where nothing listens. */
  unreachableConfig?(): unknown;
  /** Media hooks: required where the plugin declares `capabilities.media` sending or receiving anything. */
  media?: MediaContractHooks;
}

/** A medium as the fake platform holds it. */
export interface PlatformMedium {
  /** The kind the platform shows it as, in core's words (a Telegram photo → `image`, a voice message → `voice`). */
  readonly kind: MediaKind;
  /** The bytes the platform stored, exactly as uploaded. */
  readonly bytes: Uint8Array;
  readonly filename?: string;
  readonly caption?: string;
}

/** What a bot message holds on the fake platform, media-wise. */
export interface PlatformMessageMedia {
  /** Its media, in order (several for an album). */
  readonly media: readonly PlatformMedium[];
  /** Its location pin, where it is one. */
  readonly location?: GeoLocation;
  /** Its text (a message of text only, or a link line). */
  readonly text?: string;
}

/** Something a person sends the bot: a medium with its bytes, or a location or contact card. */
export interface InboundMediumSample {
  readonly kind: AttachmentKind;
  /** For kinds with bytes. */
  readonly bytes?: Uint8Array;
  readonly mime?: string;
  readonly filename?: string;
  readonly location?: GeoLocation;
  readonly contact?: ContactCard;
  readonly caption?: string;
}

/** The fake platform's side of the media contract (DESIGN §2.6, §8). */
export interface MediaContractHooks {
  /** The media of the bot's message `ref` (what `send` returned) as the platform holds it. Required where `media.send` is not empty. */
  sentMessage?(ref: MessageRef): PlatformMessageMedia | Promise<PlatformMessageMedia>;
  /** How many messages the bot has in `conversation` on the platform: nothing may be sent when a send fails. */
  botMessageCount?(): number | Promise<number>;
  /**
   * Someone other than the bot sends `sample` in `conversation`; the platform delivers it to the
   * bot as it would. Required where `media.receive` is not empty.
   */
  userSendsMedium?(sample: InboundMediumSample, hooksUrl: string): void | Promise<void>;
  /** Bytes the platform has served for media downloads so far: a download over its cap must stop early. */
  bytesServed?(): number | Promise<number>;
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

export interface ChannelContractOptions<TConfig> extends Omit<ReactionContractOptions<TConfig>, "setup"> {
  /** Starts the fake platform; called once per suite run. */
  setup(): Promise<ChannelContractFixture>;
  /** How long one step may take before the suite calls it stuck (default 20 s). */
  stepTimeoutMs?: number;
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
