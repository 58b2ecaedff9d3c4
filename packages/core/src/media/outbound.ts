import type { MediaKind } from "./kinds.js";

/**
 * One medium as a plugin's `send` gets it, planned by core (DESIGN §2.6): the kind it is sent as, and
 * its bytes, opened as a stream each time `open` is called (a retry reads them again).
 */
export interface OutboundMedium {
  readonly kind: Exclude<MediaKind, "location">;
  readonly mime: string;
  readonly filename: string;
  /** Bytes. */
  readonly size: number;
  /** A caption for this item (the first item's, where the channel has captions). */
  readonly caption?: string;
  open(): ReadableStream<Uint8Array>;
}
