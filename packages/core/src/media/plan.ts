import { ChorusError } from "../errors.js";
import type { GeoLocation } from "./attachment.js";
import { type MediaCapabilities, sendLimitOf } from "./capabilities.js";
import { formatBytes } from "./format.js";
import { fallbackChain, type MediaKind } from "./kinds.js";

/** A kind an item can be uploaded as (a location is not an upload). */
export type UploadKind = Exclude<MediaKind, "location">;

/** One medium of a `send` call, resolved by the gateway (DESIGN §2.6 rules 1–2): its bytes are stored. */
export interface MediumToPlan {
  /** `as` when the caller gave it, else the kind sniffed from the bytes. */
  readonly kind: UploadKind;
  readonly size: number;
  readonly mime: string;
  readonly filename: string;
  /** A URL the recipient can open (a public `url`, or the gateway's signed link): what a link line shows. */
  readonly link?: string;
  /** This item's own caption, from the call. */
  readonly caption?: string;
}

export interface MediaPlanInput {
  readonly text?: string;
  readonly media: readonly MediumToPlan[];
  readonly location?: GeoLocation;
}

export interface MediaPlanOptions {
  /** `media.maxBytes`: the gateway's own limit on one item. */
  readonly maxBytes: number;
  /** The channel's label, for error messages (`Telegram`). */
  readonly channel?: string;
}

/** One item of a planned message: which input item, sent as which kind, with which caption. */
export interface PlannedItem {
  readonly index: number;
  readonly as: UploadKind;
  readonly caption?: string;
}

/** One platform message the plugin's `send` is called with. */
export interface PlannedMessage {
  readonly text?: string;
  readonly media: readonly PlannedItem[];
  readonly location?: GeoLocation;
}

/** What core decided for a `send` with media: the messages in order, and how each item goes out. */
export interface MediaPlan {
  readonly messages: readonly PlannedMessage[];
  /** One entry per input item, then one for the location: the kind it went out as, `"link"` or `"text"`. */
  readonly sentAs: readonly string[];
}

/**
 * DESIGN §2.6, "Sending", rules 3–5, in order, for one `send` call whose media the gateway already
 * resolved and stored (rules 1, 2 and 6 are the gateway's): which kind each item goes out as, or a
 * link, or a typed error before anything is sent; where the text goes; how items are split into
 * messages. Pure: the same input and flags always give the same plan.
 */
export function planMedia(
  input: MediaPlanInput,
  capabilities: MediaCapabilities,
  options: MediaPlanOptions,
): MediaPlan {
  const channel = options.channel ?? "this channel";
  const sentAs: string[] = [];
  type Decided = { index: number; item: MediumToPlan } & ({ as: UploadKind } | { link: string });
  const decided: Decided[] = input.media.map((item, index) => {
    const as = decideKind(item, capabilities, options, channel);
    sentAs.push(typeof as === "string" ? as : "link");
    return typeof as === "string" ? { index, item, as } : { index, item, link: as.link };
  });

  // 5. The text: the caption of the first item sent natively where the channel has captions, else a
  //    message of its own, sent first. Items of a message: at most `perMessage`, at most
  //    `maxMessageBytes` together; a sticker or a voice note is a message of its own (no platform
  //    puts one in an album); link lines are text messages, in the items' order.
  const messages: PlannedMessage[] = [];
  const text = input.text?.trim() ? input.text : undefined;
  const firstNative = decided.find((d) => "as" in d && canCarryCaption(d.as, capabilities));
  const textAsCaption = text !== undefined && firstNative !== undefined;
  if (text !== undefined && !textAsCaption) messages.push({ media: [], text });
  let album: PlannedItem[] = [];
  let albumBytes = 0;
  let links: string[] = [];
  const flushAlbum = () => {
    if (album.length > 0) messages.push({ media: album });
    album = [];
    albumBytes = 0;
  };
  const flushLinks = () => {
    if (links.length > 0) messages.push({ media: [], text: links.join("\n") });
    links = [];
  };
  for (const d of decided) {
    if ("link" in d) {
      flushAlbum();
      links.push(`${d.item.filename}: ${d.link}`);
      continue;
    }
    flushLinks();
    const caption = captionOf(d, textAsCaption && d === firstNative ? text : undefined, capabilities);
    if (caption.own !== undefined) {
      flushAlbum();
      messages.push({ media: [], text: caption.own });
    }
    const planned: PlannedItem = {
      index: d.index,
      as: d.as,
      ...(caption.carried !== undefined ? { caption: caption.carried } : {}),
    };
    if (d.as === "sticker" || d.as === "voice") {
      flushAlbum();
      messages.push({ media: [planned] });
      continue;
    }
    const full =
      album.length >= capabilities.perMessage ||
      (capabilities.maxMessageBytes !== undefined && albumBytes + d.item.size > capabilities.maxMessageBytes);
    if (full) flushAlbum();
    album.push(planned);
    albumBytes += d.item.size;
  }
  flushAlbum();
  flushLinks();
  // 5. A location: a native pin where the channel has one, else text — name and address, the
  //    coordinates, and an OpenStreetMap link.
  if (input.location) {
    const pin = capabilities.send.includes("location") && !capabilities.linkOnly;
    messages.push(pin ? { media: [], location: input.location } : { media: [], text: locationText(input.location) });
    sentAs.push(pin ? "location" : "text");
  }
  return { messages, sentAs };
}

/**
 * 3. A kind the channel cannot send falls back (voice → audio → file; sticker → image → file; video
 *    → file; image → file); nothing left, or a link-only channel → a link line when the medium has a
 *    URL the recipient can open, else `E_UNSUPPORTED` naming what the channel sends.
 * 4. Over its kind's limit but within that of a kind it falls back to → sent as that kind; over
 *    every limit it could use, or the gateway's `media.maxBytes` → `E_TOO_LARGE` naming the limit.
 */
function decideKind(
  item: MediumToPlan,
  capabilities: MediaCapabilities,
  options: MediaPlanOptions,
  channel: string,
): UploadKind | { link: string } {
  if (item.size > options.maxBytes) {
    throw new ChorusError(
      "E_TOO_LARGE",
      `"${item.filename}" is ${formatBytes(item.size)}; media are limited to ${formatBytes(options.maxBytes)} (media.maxBytes).`,
      { details: { filename: item.filename, size: item.size, limit: options.maxBytes } },
    );
  }
  const usable = capabilities.linkOnly
    ? []
    : (fallbackChain(item.kind).filter(
        (kind) => kind !== "location" && capabilities.send.includes(kind),
      ) as UploadKind[]);
  if (usable.length === 0) {
    if (item.link !== undefined) return { link: item.link };
    const sends = capabilities.send.filter((kind) => kind !== "location");
    throw new ChorusError(
      "E_UNSUPPORTED",
      capabilities.linkOnly
        ? `${channel} cannot upload media; "${item.filename}" could go out as a link, but it has no URL the recipient can open.`
        : `${channel} cannot send ${article(item.kind)} (nor anything it falls back to); it sends ${sends.length > 0 ? sends.join(", ") : "no media"}.`,
      {
        hint: capabilities.linkOnly
          ? "Give a public url, or set gateway.publicUrl so the gateway can link to the medium."
          : `Send it as one of: ${sends.join(", ")} (the as parameter), or describe it in text.`,
        details: { filename: item.filename, kind: item.kind, sends },
      },
    );
  }
  const limitOf = (kind: UploadKind) =>
    Math.min(sendLimitOf(capabilities, kind), capabilities.maxMessageBytes ?? Number.POSITIVE_INFINITY);
  const fits = usable.find((kind) => item.size <= limitOf(kind));
  if (fits) return fits;
  const limits = usable.map((kind) => `${pluralOf(kind)} up to ${formatBytes(limitOf(kind))}`);
  throw new ChorusError(
    "E_TOO_LARGE",
    `"${item.filename}" is ${formatBytes(item.size)}; ${channel} takes ${limits.join(" and ")}.`,
    {
      details: { filename: item.filename, size: item.size, limit: Math.max(...usable.map(limitOf)) },
    },
  );
}

/** Whether an item sent as `kind` can carry a caption here (a sticker or a voice note cannot, nor a kind `uncaptioned` lists). */
function canCarryCaption(kind: UploadKind, capabilities: MediaCapabilities): boolean {
  return capabilities.caption && kind !== "sticker" && kind !== "voice" && !capabilities.uncaptioned?.includes(kind);
}

/** An item's caption: carried by it where it can, else its own text message before it. */
function captionOf(
  d: { as: UploadKind; item: MediumToPlan },
  text: string | undefined,
  capabilities: MediaCapabilities,
): { carried?: string; own?: string } {
  const parts = [text, d.item.caption?.trim() ? d.item.caption : undefined].filter((p): p is string => p !== undefined);
  if (parts.length === 0) return {};
  const caption = parts.join("\n\n");
  return canCarryCaption(d.as, capabilities) ? { carried: caption } : { own: caption };
}

/** A location as text: its name and address, the coordinates, and an OpenStreetMap link. */
export function locationText(location: GeoLocation): string {
  const { latitude, longitude } = location;
  const lines = [[location.name, location.address].filter(Boolean).join(", "), `${latitude}, ${longitude}`];
  lines.push(`https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`);
  return lines.filter((line) => line !== "").join("\n");
}

function article(kind: UploadKind): string {
  return kind === "image" || kind === "audio" ? `an ${kind}` : kind === "voice" ? "a voice note" : `a ${kind}`;
}

function pluralOf(kind: UploadKind): string {
  return kind === "voice" ? "voice notes" : kind === "audio" ? "audio" : `${kind}s`;
}
