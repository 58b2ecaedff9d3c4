import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { ReactionVocabulary } from "../emoji/vocabulary.js";
import { ChorusError } from "../errors.js";
import type { Attachment, DownloadedMedium, DownloadOptions, GeoLocation } from "../media/attachment.js";
import { type MediaCapabilities, mediaCapabilityProblems } from "../media/capabilities.js";
import type { OutboundMedium } from "../media/outbound.js";
import type { ReactionCapabilities } from "../reactions/capabilities.js";
import type { ReactionIntent } from "../reactions/intent.js";
import type { ReactionSummary, ReactResult } from "../results.js";
import type { ChatType, ConversationAddress, InboundEvent, Participant } from "./events.js";
import type { Logger } from "./logger.js";
import { CHANNEL_ID_PATTERN, CHORUS_API_VERSION } from "./manifest.js";
import type { MessageRef } from "./message-ref.js";
import type { ChannelStore } from "./store.js";

/** What a channel can do, as runtime data the gateway, tool schema and contract suite read. */
export interface ChannelCapabilities {
  readonly chatTypes: readonly ChatType[];
  readonly reactions: ReactionCapabilities;
  /** A typing indicator exists. */
  readonly typing: boolean;
  /** The platform delivers reactions people make. */
  readonly inboundReactions: boolean;
  /** Replies to a specific message are possible. */
  readonly replies: boolean;
  /** Threads or topics are separate conversations. */
  readonly threads: boolean;
  /** Longest text of one platform message; longer replies are split. */
  readonly maxTextLength: number;
  /** What the channel sends and receives as media (DESIGN §2.6); absent: no media at all. */
  readonly media?: MediaCapabilities;
}

/** A webhook handler on the gateway's HTTP server, in web-standard Request/Response. */
export type HttpHandler = (request: Request) => Response | Promise<Response>;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What the gateway hands a channel instance. */
export interface ChannelContext<TConfig> {
  /** The channel's config block, validated by the plugin's `configSchema`. */
  readonly config: TConfig;
  /** `default`, or the name under `channels.<id>.accounts`. */
  readonly accountId: string;
  /** Small JSON state kept by the host for this channel account (reaction records, cursors, secrets). */
  readonly store: ChannelStore;
  /**
   * A directory that persists across restarts, one per channel and account, for what is not small
   * key-value data (a linked device's key files); everything else belongs in `store`.
   */
  readonly stateDir: string;
  readonly logger: Logger;
  /** Aborted when the instance is being stopped. */
  readonly signal: AbortSignal;
  /**
   * Hands an inbound event to the gateway. The promise resolves once the host has committed the
   * event durably (the gateway's inbox), so acknowledge the platform only after it: advance a
   * poll offset, answer a webhook, ack a socket event. It rejects when the event could not be
   * committed: do not acknowledge then, so the platform delivers it again. A plugin written
   * before this was a promise, that ignores it, still works — it only loses the guarantee that
   * an event acknowledged to the platform survives a crash.
   */
  emit(event: InboundEvent): Promise<void>;
  readonly http: {
    /** Registers a route under `/hooks/<channel>/…`; `path` is relative to that prefix. */
    route(method: HttpMethod, path: string, handler: HttpHandler): void;
    /** The public URL a path of this channel is reachable at (for webhook registration). */
    url(path: string): string;
  };
}

/** What to send. */
export interface OutboundMessage {
  /** The text; empty when the message is media or a location only. */
  readonly text: string;
  /**
   * Media planned by core (DESIGN §2.6): the kinds the channel declared, within its limits and its
   * `perMessage`; the caption of an item travels on it. Present only where the channel declares
   * `media.send`.
   */
  readonly media?: readonly OutboundMedium[];
  /** A native location pin; only where the channel declares `location` in `media.send`. */
  readonly location?: GeoLocation;
  /** Reply to this message where the platform can. */
  readonly replyTo?: MessageRef;
  /** Platform user ids to mention. */
  readonly mentions?: readonly string[];
  /**
   * The same key for every attempt to send this one message (the gateway's outbox resends a
   * reply whose send a crash interrupted). A channel whose platform de-duplicates on a
   * client-chosen key (Nextcloud `referenceId`, WhatsApp's message id, Slack's `client_msg_id`,
   * Feishu's `uuid`) passes it on, so a resend is not a second message; others ignore it.
   */
  readonly idempotencyKey?: string;
}

/**
 * Where a channel account is. `failed`: the platform refused the credentials (401/403, a revoked
 * token or session); a plugin reports it from `status()` when that happens while running, and
 * throws `E_AUTH` from `start()` when it happens at start. The gateway does not restart a failed
 * account in a loop (DESIGN §3).
 */
export type ChannelState = "starting" | "running" | "degraded" | "failed" | "stopped";

export interface ChannelStatus {
  readonly state: ChannelState;
  /** What is wrong, or a useful fact (`connected as @bot`). */
  readonly detail?: string;
}

/** A running connection of one account of a channel (DESIGN §3). */
export interface ChannelInstance {
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Sends a message (split at the platform limit); returns the ref of the first part. A medium the
   * platform took as another kind than planned (a voice note sent as audio) is said in the ref's
   * `data.sentAs`, one kind per medium of the message, so the caller's result tells the truth.
   */
  send(conversation: ConversationAddress, message: OutboundMessage): Promise<MessageRef>;
  /** Executes a reaction intent decided by core's `normalizeReaction`. */
  react(ref: MessageRef, intent: ReactionIntent): Promise<ReactResult>;
  /** Lists reactions on a message; present where `capabilities.reactions.list`. */
  listReactions?(ref: MessageRef): Promise<ReactionSummary[]>;
  setTyping(conversation: ConversationAddress, on: boolean): Promise<void>;
  /**
   * Streams an inbound attachment's bytes from the platform; present where `media.receive` lists
   * a kind that has bytes. Stops with `E_TOO_LARGE` past `maxBytes` without reading the rest; a
   * medium the platform no longer has is `E_MESSAGE_NOT_FOUND`.
   */
  download?(attachment: Attachment, options: DownloadOptions): Promise<DownloadedMedium>;
  /** Completes a ref for a message id the agent saw; throws `E_MESSAGE_NOT_FOUND` when it cannot. */
  resolveMessageRef(conversation: ConversationAddress, messageId: string): Promise<MessageRef>;
  status(): ChannelStatus;
  /**
   * The bot's own account on the platform once started (id, display name, E.164 where the
   * platform has phone numbers): mention detection and the default owner use it.
   */
  identity?(): Participant | undefined;
}

/** What `chorus channels login <channel>` hands a plugin that links an account interactively. */
export interface ChannelLoginContext<TConfig> {
  /** The channel's config block, validated by the plugin's `configSchema`. */
  readonly config: TConfig;
  readonly accountId: string;
  /** The same store the running instance of this account gets. */
  readonly store: ChannelStore;
  /** The same directory the running instance of this account gets. */
  readonly stateDir: string;
  readonly logger: Logger;
  /** Aborted when the person gives up (Ctrl-C). */
  readonly signal: AbortSignal;
  /** Values of the plugin's declared `loginOptions` given on the command line, by name. */
  readonly options: Readonly<Record<string, string>>;
  /** Shows a QR code to scan: terminal art on a terminal, the raw string otherwise. */
  showQr(data: string): void;
  /** Tells the person something (a pairing code, what to tap next). */
  print(line: string): void;
}

/** A command-line option of `chorus channels login <channel>` that a plugin declares (`--phone <number>`). */
export interface LoginOption {
  /** The option's name: lower-case words joined by `-` (`phone`, `device-name`). */
  readonly name: string;
  /** What its value is, as the help shows it (`<number>`). */
  readonly value: string;
  readonly description: string;
}

/** What a finished login says about the account it linked. */
export interface ChannelLoginResult {
  /** Who the channel is now connected as (`+15551234567`). */
  readonly account: string;
}

/**
 * What `chorus doctor` hands a plugin's `probe`: the validated config of one account, never a
 * running instance. A probe must be cheap and free of side effects (no long poll, no linked-device
 * session, no webhook registration): the gateway may be running the same account at that moment.
 */
export interface ChannelProbeContext<TConfig> {
  readonly config: TConfig;
  readonly accountId: string;
  /** The account's state directory (read it; never write from a probe). */
  readonly stateDir: string;
  /** The account's store, to read (a linked session, a cursor): a probe never writes. */
  readonly store: Pick<ChannelStore, "get" | "list">;
  readonly logger: Logger;
  /** Aborted when the probe's time is up. */
  readonly signal: AbortSignal;
}

/** What a probe found: whether this account can work, a line about it, and how to fix it when not. */
export interface ChannelProbeResult {
  readonly ok: boolean;
  /** `connected as @chorus_bot`, `HTTP 401 from getMe`. */
  readonly detail: string;
  /** One concrete line: what to do (`create a new token with @BotFather and set channels.telegram.botToken`). */
  readonly fix?: string;
  /**
   * Webhook paths (relative to the channel's `/hooks/<id>/`) that the platform must reach with
   * this config; the doctor checks the gateway's public URL for them.
   */
  readonly webhooks?: readonly string[];
  /** The platform's own address when it is self-hosted (`baseUrl`); absent: a service on the internet. */
  readonly platformUrl?: string;
}

/** A channel plugin: the default export of a channel package. */
export interface ChannelPlugin<TConfig = unknown> {
  readonly id: string;
  readonly apiVersion: typeof CHORUS_API_VERSION;
  /** Human name (`Nextcloud Talk`). */
  readonly label: string;
  readonly capabilities: ChannelCapabilities;
  /** The closed reaction vocabulary with its emoji mapping, where the platform has one. */
  readonly vocabulary?: ReactionVocabulary;
  /** Validates `channels.<id>` (a Standard Schema; zod in first-party plugins). */
  readonly configSchema: StandardSchemaV1<unknown, TConfig>;
  /**
   * Keys of the validated config whose values are secrets (`botToken`, `auth.password`): the host
   * never shows them and removes them from anything the channel reports (logs, errors, status).
   */
  readonly secretKeys?: readonly string[];
  create(ctx: ChannelContext<TConfig>): ChannelInstance | Promise<ChannelInstance>;
  /**
   * Whether an account with this config holds a connection to the platform (long polling, a
   * gateway WebSocket, a linked device, an event stream) that must run in one place only: with
   * several gateways on one database, such an account runs on exactly one of them at a time,
   * under a lease. False for an account the platform reaches by webhooks only (it runs on every
   * gateway). A pure function of the config; absent means true.
   */
  holdsConnection?(config: TConfig): boolean;
  /**
   * An account's media where they depend on its config (Nextcloud Talk uploads only with a files
   * login): what the gateway plans, offers and downloads for that account. A pure function of the
   * config; absent means `capabilities.media` for every account.
   */
  mediaFor?(config: TConfig): MediaCapabilities;
  /**
   * Links an account interactively (QR code, pairing code) and persists its credentials in
   * `stateDir`; present on channels that log in as a device rather than with a token.
   */
  login?(ctx: ChannelLoginContext<TConfig>): Promise<ChannelLoginResult>;
  /** The options `login` understands, offered by `chorus channels login <channel>`. */
  readonly loginOptions?: readonly LoginOption[];
  /**
   * Checks, without starting anything, that the platform is reachable and accepts the account's
   * credentials (`chorus doctor`): Telegram `getMe`, Slack `auth.test`, a server's status page.
   */
  probe?(ctx: ChannelProbeContext<TConfig>): Promise<ChannelProbeResult>;
}

/**
 * Type-checks a plugin object and checks at runtime what types cannot: the id's form, the API
 * version, and that declared reaction flags are consistent.
 */
export function defineChannel<TConfig>(plugin: ChannelPlugin<TConfig>): ChannelPlugin<TConfig> {
  const problems = channelPluginProblems(plugin);
  if (problems.length > 0) {
    throw new ChorusError(
      "E_INVALID_INPUT",
      `channel plugin "${String(plugin?.id)}" is invalid: ${problems.join("; ")}`,
    );
  }
  return plugin;
}

/** Everything wrong with a value that claims to be a channel plugin (empty when it is one). */
export function channelPluginProblems(value: unknown): string[] {
  if (typeof value !== "object" || value === null) return ["it is not an object"];
  const plugin = value as Partial<ChannelPlugin>;
  const problems: string[] = [];
  if (typeof plugin.id !== "string" || !CHANNEL_ID_PATTERN.test(plugin.id)) {
    problems.push(`id must match ${CHANNEL_ID_PATTERN}`);
  }
  if (plugin.apiVersion !== CHORUS_API_VERSION) {
    problems.push(`apiVersion is ${JSON.stringify(plugin.apiVersion)}, this core speaks ${CHORUS_API_VERSION}`);
  }
  if (typeof plugin.label !== "string" || plugin.label === "") problems.push("label must be a non-empty string");
  if (typeof plugin.create !== "function") problems.push("create must be a function");
  if (plugin.login !== undefined && typeof plugin.login !== "function") problems.push("login must be a function");
  if (plugin.probe !== undefined && typeof plugin.probe !== "function") problems.push("probe must be a function");
  if (plugin.holdsConnection !== undefined && typeof plugin.holdsConnection !== "function") {
    problems.push("holdsConnection must be a function");
  }
  if (plugin.mediaFor !== undefined && typeof plugin.mediaFor !== "function")
    problems.push("mediaFor must be a function");
  problems.push(...loginOptionProblems(plugin.loginOptions));
  if (
    plugin.secretKeys !== undefined &&
    (!Array.isArray(plugin.secretKeys) || !plugin.secretKeys.every((k) => typeof k === "string" && k !== ""))
  ) {
    problems.push("secretKeys must be a list of config keys");
  }
  if (typeof plugin.configSchema?.["~standard"]?.validate !== "function") {
    problems.push("configSchema must be a Standard Schema (zod, valibot, …)");
  }
  const reactions = plugin.capabilities?.reactions;
  if (!reactions) {
    problems.push("capabilities.reactions is missing");
  } else {
    if (reactions.tapbackOnly && !reactions.vocabulary?.length) {
      problems.push("capabilities.reactions.tapbackOnly needs a vocabulary of kinds");
    }
    if (reactions.addOnly && reactions.clearAll) {
      problems.push("capabilities.reactions cannot be addOnly and clearAll at once");
    }
  }
  if (plugin.capabilities?.media !== undefined) {
    problems.push(...mediaCapabilityProblems(plugin.capabilities.media).map((p) => `capabilities.${p}`));
  }
  return problems;
}

const LOGIN_OPTION_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** Names the CLI already uses for itself. */
const RESERVED_LOGIN_OPTIONS = new Set(["account", "config", "verbose", "help"]);

function loginOptionProblems(options: unknown): string[] {
  if (options === undefined) return [];
  if (!Array.isArray(options)) return ["loginOptions must be a list"];
  return options.flatMap((option: Partial<LoginOption>, index) => {
    if (typeof option?.name !== "string" || !LOGIN_OPTION_NAME.test(option.name)) {
      return [`loginOptions[${index}].name must be lower-case words joined by "-"`];
    }
    if (RESERVED_LOGIN_OPTIONS.has(option.name)) return [`loginOptions[${index}].name "${option.name}" is reserved`];
    if (typeof option.description !== "string" || typeof option.value !== "string") {
      return [`loginOptions[${index}] needs a value placeholder and a description`];
    }
    return [];
  });
}
