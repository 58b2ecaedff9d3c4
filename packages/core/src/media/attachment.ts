import type { JsonValue } from "../plugin/message-ref.js";
import type { AttachmentKind } from "./kinds.js";

/** A place: a pin someone shared, or one to send. */
export interface GeoLocation {
  readonly latitude: number;
  readonly longitude: number;
  readonly name?: string;
  readonly address?: string;
}

/** A contact card someone shared. */
export interface ContactCard {
  readonly name: string;
  readonly phones?: readonly string[];
  /** The card as the platform carries it (a vCard), where it has one. */
  readonly vcard?: string;
}

/**
 * A medium on an inbound message (DESIGN §2.6), as the plugin read it: what it is and, in `source`,
 * whatever the plugin needs to download it (a file id, a URL, a media key). The gateway downloads
 * it through the plugin's `download` and gives the agent its `mediaId`.
 */
export interface Attachment {
  readonly kind: AttachmentKind;
  /** The MIME type the platform says, where it says one (the gateway sniffs the bytes too). */
  readonly mime?: string;
  /** Bytes, where the platform says. */
  readonly size?: number;
  readonly filename?: string;
  readonly durationMs?: number;
  readonly width?: number;
  readonly height?: number;
  /** A location's place (kind `location`). */
  readonly location?: GeoLocation;
  /** A contact card (kind `contact`). */
  readonly contact?: ContactCard;
  /** What the plugin's `download` needs; opaque to the gateway, kept with the event (JSON). */
  readonly source?: JsonValue;
  /** The medium's id in the gateway's store, once it downloaded it (set by the gateway, not by plugins). */
  readonly mediaId?: string;
}

/** What a plugin's `download` streams: the bytes, and what the platform said of them. */
export interface DownloadedMedium {
  readonly stream: ReadableStream<Uint8Array>;
  /** The MIME type the download's answer gave, where it gave one. */
  readonly mime?: string;
  /** Bytes, where the platform said before sending them. */
  readonly size?: number;
}

/** How the gateway asks a plugin for an attachment's bytes. */
export interface DownloadOptions {
  /** Stop (with `E_TOO_LARGE`) past this many bytes, without reading the rest. */
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
}
