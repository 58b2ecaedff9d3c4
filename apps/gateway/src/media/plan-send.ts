import {
  ChorusError,
  formatBytes,
  type GeoLocation,
  type MediaCapabilities,
  type MediaItemInput,
  type MediumToPlan,
  mediaOf,
  offersMedia,
  planMedia,
  sendLimitOf,
  type UploadKind,
  uploadKindsOf,
} from "@chorus/core";
import type { MediaLinks } from "./links.js";
import type { OutboxMedia } from "./outbox-media.js";
import type { MediaSettings } from "./settings.js";
import { type ResolvedMedium, resolveMediaItem } from "./sources.js";
import type { MediaStore } from "./types.js";

/** The parts of a `send` call this plans. */
export interface SendToPlan {
  readonly text?: string | undefined;
  readonly media?: readonly MediaItemInput[] | undefined;
  readonly location?:
    | { latitude: number; longitude: number; name?: string | undefined; address?: string | undefined }
    | undefined;
}

/** What the plan needs: the store, the settings and the links of the gateway, and the channel. */
export interface PlanContext {
  readonly store: MediaStore;
  readonly settings: MediaSettings;
  readonly links: MediaLinks;
  readonly capabilities: { readonly media?: MediaCapabilities };
  /** The channel's label, for messages (`Telegram`). */
  readonly channel: string;
  readonly signal?: AbortSignal | undefined;
}

/** A `send` with media, planned: the platform messages in order (each an outbox row), and how each item went out. */
export interface PlannedSend {
  readonly messages: readonly { readonly text: string; readonly media?: OutboxMedia }[];
  readonly sentAs: readonly string[];
}

/**
 * DESIGN §2.6 for one `send` call: what the channel cannot take at all is refused first (no media
 * here, a kind given with `as` that nothing falls back to); then each item goes into the store
 * (rules 1–2) capped at the most the channel takes, so an item over every limit is `E_TOO_LARGE`
 * before it is stored; then core's `planMedia` decides kinds, links, captions and splitting
 * (rules 3–5). Nothing is sent here.
 */
export async function planSend(input: SendToPlan, context: PlanContext): Promise<PlannedSend> {
  const capabilities = mediaOf(context.capabilities);
  const items = input.media ?? [];
  if (items.length > 0 && !offersMedia(capabilities)) {
    throw new ChorusError("E_UNSUPPORTED", `${context.channel} cannot send media.`, {
      hint: "Describe it in text, or send a location.",
    });
  }
  const { maxBytes } = context.settings;
  const cap = capOf(capabilities, maxBytes);
  const limitNote =
    cap < maxBytes
      ? `${context.channel} takes media up to ${formatBytes(cap)}`
      : `media are limited to ${formatBytes(maxBytes)} (media.maxBytes)`;
  items.forEach((item, index) => {
    if (item.as !== undefined) checkKind(item, index, item.as, capabilities, context);
  });
  const resolved: ResolvedMedium[] = [];
  let plan: ReturnType<typeof planMedia>;
  try {
    for (const [index, item] of items.entries()) {
      const options = {
        store: context.store,
        settings: context.settings,
        maxBytes: cap,
        limitNote,
        signal: context.signal,
      };
      resolved.push(await resolveMediaItem(item, index, options));
    }
    plan = planMedia(
      {
        ...(input.text !== undefined ? { text: input.text } : {}),
        media: resolved.map((r, index) => toPlan(r, items[index] as MediaItemInput, context.links)),
        ...(input.location ? { location: placeOf(input.location) } : {}),
      },
      capabilities,
      { maxBytes, channel: context.channel },
    );
  } catch (error) {
    // Refused once more was known (an item that failed, kinds sniffed from the bytes): what this call stored goes again.
    for (const [index, r] of resolved.entries()) {
      if (items[index]?.mediaId === undefined) await context.store.remove?.(r.medium.mediaId).catch(() => undefined);
    }
    throw error;
  }
  const messages = plan.messages.map((message) => {
    const media = message.media.map((planned) => {
      const { medium, filename } = resolved[planned.index] as ResolvedMedium;
      return {
        mediaId: medium.mediaId,
        as: planned.as,
        filename,
        mime: medium.mime,
        size: medium.size,
        ...(planned.caption !== undefined ? { caption: planned.caption } : {}),
      };
    });
    const extra =
      media.length > 0 || message.location
        ? { media: { media, ...(message.location ? { location: message.location } : {}) } }
        : {};
    return { text: message.text ?? "", ...extra };
  });
  return { messages, sentAs: plan.sentAs };
}

/**
 * The most one item may be here: the largest limit among the kinds the channel uploads (within its
 * per-message cap), never more than `media.maxBytes`; a channel that only links takes `media.maxBytes`.
 */
export function capOf(capabilities: MediaCapabilities, maxBytes: number): number {
  const uploads = uploadKindsOf(capabilities);
  if (uploads.length === 0) return maxBytes;
  const perMessage = capabilities.maxMessageBytes ?? Number.POSITIVE_INFINITY;
  const largest = Math.max(...uploads.map((kind) => Math.min(sendLimitOf(capabilities, kind), perMessage)));
  return Math.min(maxBytes, largest);
}

/** A kind given with `as` that the channel cannot send nor fall back from, refused before anything is stored. */
function checkKind(
  item: MediaItemInput,
  index: number,
  as: UploadKind,
  capabilities: MediaCapabilities,
  context: PlanContext,
): void {
  const linkable = context.links.enabled || item.url !== undefined;
  const provisional: MediumToPlan = {
    kind: as,
    size: 0,
    mime: "application/octet-stream",
    filename: item.filename ?? `media.${index}`,
    ...(linkable ? { link: "about:blank" } : {}),
  };
  planMedia({ media: [provisional] }, capabilities, { maxBytes: context.settings.maxBytes, channel: context.channel });
}

/** The kind a stored medium is sent as when the caller gave none (a sniffed kind is never a location or contact). */
function uploadKindOf(kind: string): UploadKind {
  return kind === "image" || kind === "video" || kind === "audio" || kind === "voice" || kind === "sticker"
    ? kind
    : "file";
}

/** A stored item as core plans it: `as` or the sniffed kind, and a link a recipient can open where there is one. */
function toPlan(r: ResolvedMedium, item: MediaItemInput, links: MediaLinks): MediumToPlan {
  const link = links.link(r.medium.mediaId) ?? r.publicUrl;
  return {
    kind: item.as ?? uploadKindOf(r.medium.kind),
    size: r.medium.size,
    mime: r.medium.mime,
    filename: r.filename,
    ...(link !== undefined ? { link } : {}),
    ...(item.caption !== undefined ? { caption: item.caption } : {}),
  };
}

/** A location as core takes it: name and address only where given. */
function placeOf(location: NonNullable<SendToPlan["location"]>): GeoLocation {
  const { latitude, longitude, name, address } = location;
  return {
    latitude,
    longitude,
    ...(name !== undefined ? { name } : {}),
    ...(address !== undefined ? { address } : {}),
  };
}
