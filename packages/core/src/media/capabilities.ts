import { type AttachmentKind, MEDIA_KINDS, type MediaKind } from "./kinds.js";

/**
 * What a channel can do with media, as runtime data (DESIGN §2.6): the tool schema, core's media
 * plan and the contract suite all read it, so it must tell the truth.
 */
export interface MediaCapabilities {
  /** Kinds sent natively (a location as a native pin). */
  readonly send: readonly MediaKind[];
  /** Kinds delivered inbound as attachments. */
  readonly receive: readonly AttachmentKind[];
  /** Bytes of one item, the platform's limit for a bot. */
  readonly maxSendBytes: number;
  /** Where a kind has a limit of its own (Feishu: images 10 MB, files 30 MB). */
  readonly maxSendBytesByKind?: Partial<Record<MediaKind, number>>;
  /** Bytes of the largest inbound item the bot can download. */
  readonly maxReceiveBytes: number;
  /** A text can travel with a medium as its caption (else it is a message of its own). */
  readonly caption: boolean;
  /** Kinds that carry no caption even where `caption` is true (WhatsApp audio); stickers and voice notes never do. */
  readonly uncaptioned?: readonly MediaKind[];
  /** Items in one message (an album); more become several messages. */
  readonly perMessage: number;
  /** Bytes of all items of one message together (Discord's request limit); a message is split to stay under. */
  readonly maxMessageBytes?: number;
  /** The channel cannot upload at all: media go out as links (Nextcloud Talk's bot API). */
  readonly linkOnly?: boolean;
}

/** A channel that sends and receives no media. */
export const NO_MEDIA: MediaCapabilities = Object.freeze({
  send: [],
  receive: [],
  maxSendBytes: 0,
  maxReceiveBytes: 0,
  caption: false,
  perMessage: 1,
});

/** The limit of `kind` on a channel: its own where it has one, else the channel's. */
export function sendLimitOf(capabilities: MediaCapabilities, kind: MediaKind): number {
  return capabilities.maxSendBytesByKind?.[kind] ?? capabilities.maxSendBytes;
}

/** What is wrong with declared media capabilities (empty when they are well-formed). */
export function mediaCapabilityProblems(capabilities: MediaCapabilities): string[] {
  const problems: string[] = [];
  if (!Array.isArray(capabilities.send) || !Array.isArray(capabilities.receive))
    return ["media.send and media.receive must be lists of kinds"];
  for (const kind of capabilities.send)
    if (!MEDIA_KINDS.includes(kind)) problems.push(`media.send lists an unknown kind ${JSON.stringify(kind)}`);
  for (const kind of capabilities.uncaptioned ?? [])
    if (!MEDIA_KINDS.includes(kind)) problems.push(`media.uncaptioned lists an unknown kind ${JSON.stringify(kind)}`);
  for (const kind of capabilities.receive)
    if (kind !== "contact" && !MEDIA_KINDS.includes(kind))
      problems.push(`media.receive lists an unknown kind ${JSON.stringify(kind)}`);
  const positive = (value: number | undefined, name: string) => {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0))
      problems.push(`${name} must be a whole number of bytes ≥ 0`);
  };
  positive(capabilities.maxSendBytes, "media.maxSendBytes");
  positive(capabilities.maxReceiveBytes, "media.maxReceiveBytes");
  positive(capabilities.maxMessageBytes, "media.maxMessageBytes");
  for (const [kind, limit] of Object.entries(capabilities.maxSendBytesByKind ?? {}))
    positive(limit, `media.maxSendBytesByKind.${kind}`);
  if (!(Number.isSafeInteger(capabilities.perMessage) && capabilities.perMessage >= 1))
    problems.push("media.perMessage must be a whole number ≥ 1");
  const uploads = capabilities.send.filter((kind) => kind !== "location");
  if (uploads.length > 0 && capabilities.maxSendBytes <= 0)
    problems.push("media.maxSendBytes must be > 0 where media are sent");
  if (
    capabilities.receive.some((kind) => kind !== "location" && kind !== "contact") &&
    capabilities.maxReceiveBytes <= 0
  )
    problems.push("media.maxReceiveBytes must be > 0 where media are received");
  if (capabilities.linkOnly && uploads.length > 0)
    problems.push("media.linkOnly cannot send media natively (send must list none but location)");
  return problems;
}

/** A channel's media capabilities; a plugin that declares none sends and receives no media. */
export function mediaOf(capabilities: { readonly media?: MediaCapabilities }): MediaCapabilities {
  return capabilities.media ?? NO_MEDIA;
}

/**
 * What one account of a channel can do: its plugin's `capabilities`, with the media its config
 * gives where the plugin says (`mediaFor`); a `mediaFor` that throws or answers malformed
 * capabilities is refused, naming the problem.
 */
export function accountCapabilities<C extends { readonly media?: MediaCapabilities }>(
  plugin: { readonly capabilities: C; mediaFor?(config: never): MediaCapabilities },
  config: unknown,
): C {
  if (!plugin.mediaFor) return plugin.capabilities;
  const media = (plugin.mediaFor as (config: unknown) => MediaCapabilities)(config);
  const problems = mediaCapabilityProblems(media);
  if (problems.length > 0) throw new Error(`mediaFor answered malformed media: ${problems.join("; ")}`);
  return { ...plugin.capabilities, media };
}
