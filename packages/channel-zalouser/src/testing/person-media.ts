import type { FakeMediaStore } from "./media-store.js";
import type { FakeLocation, FakeMedium } from "./state.js";

/** A medium a person sends in a test, in core's words. */
export interface PersonMedium {
  from: string;
  /** A group id; a direct message to the bot when absent. */
  group?: string;
  kind: "image" | "video" | "voice" | "audio" | "file" | "sticker" | "location";
  bytes?: Uint8Array;
  filename?: string;
  mime?: string;
  /** A photo's description, a video's title. */
  caption?: string;
  location?: FakeLocation;
  width?: number;
  height?: number;
  durationMs?: number;
}

/** What a person writes in a test. */
export interface PersonMessage {
  from: string;
  /** A group id; a direct message to the bot when absent. */
  group?: string;
  text: string;
  /** Ids mentioned: each `@Name` in the text becomes a mention (`-1`: @all). */
  mentions?: string[];
  /** The id of the message it quotes. */
  replyTo?: string;
}

/** A person's medium as Zalo keeps it: the bytes on its CDN (a sticker in its catalogue). */
export function personMedium(media: FakeMediaStore, input: PersonMedium): FakeMedium {
  const bytes = input.bytes ?? new Uint8Array();
  const mime = input.mime ?? "application/octet-stream";
  const filename = input.filename ?? `${input.kind}.bin`;
  const extra = {
    ...(input.caption !== undefined && { caption: input.caption }),
    ...(input.width !== undefined && { width: input.width }),
    ...(input.height !== undefined && { height: input.height }),
    ...(input.durationMs !== undefined && { durationMs: input.durationMs }),
  };
  if (input.kind === "sticker") {
    const { id, catId, type, ...stored } = media.addSticker(bytes, mime);
    return { kind: "sticker", ...stored, sticker: { id, catId, type } };
  }
  if (input.kind === "image") {
    return { kind: mime === "image/gif" ? "gif" : "photo", ...media.store("photo", bytes, filename, mime), ...extra };
  }
  const kind = input.kind === "video" || input.kind === "voice" ? input.kind : "file";
  return { kind, ...media.store("file", bytes, filename, mime), ...extra };
}
