/** What a medium is, for sending and receiving (DESIGN §2.6). A `location` is sent and received as a pin. */
export const MEDIA_KINDS = ["image", "video", "audio", "voice", "file", "sticker", "location"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** What an inbound attachment can be: a medium, or a contact card someone shared. */
export type AttachmentKind = MediaKind | "contact";

/**
 * What a kind falls back to where a channel cannot send it (DESIGN §2.6 rule 3): voice → audio →
 * file; sticker → image → file; video → file; image → file; audio → file. A file and a location
 * fall back to nothing (a location goes out as text instead: rule 5).
 */
export const MEDIA_FALLBACK: Readonly<Record<MediaKind, MediaKind | undefined>> = {
  voice: "audio",
  audio: "file",
  sticker: "image",
  image: "file",
  video: "file",
  file: undefined,
  location: undefined,
};

/** `kind` and the kinds it falls back to, in order (`voice` → `["voice", "audio", "file"]`). */
export function fallbackChain(kind: MediaKind): MediaKind[] {
  const chain: MediaKind[] = [];
  for (let next: MediaKind | undefined = kind; next !== undefined; next = MEDIA_FALLBACK[next]) chain.push(next);
  return chain;
}
