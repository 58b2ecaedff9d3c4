import { collectBytes, tooLarge } from "@chorus/channel-kit";
import type { OutboundMedium } from "@chorus/core";
import type { RawFile } from "discord.js";
import { DISCORD_MAX_MESSAGE_MEDIA_BYTES, DISCORD_MAX_UPLOAD_BYTES } from "./media.js";

/** The files of one message as discord.js uploads them, and their entries of `payload_json.attachments`. */
export interface MessageFiles {
  readonly files: RawFile[];
  /** `{ id: n, filename }` per `files[n]` (developers/reference.mdx "Uploading Files"). */
  readonly attachments: { id: number; filename: string }[];
}

/**
 * The planned media of one message as `files[n]` parts. discord.js' REST layer (@discordjs/rest
 * 2.6.3, `REST#resolveRequest`) puts each file into a `Blob` for its `FormData`, so it takes bytes,
 * never a stream (discord.js' own `channel.send({ files })` reads a stream whole first too): each
 * medium is read from `open()` into memory, at most Discord's 10 MiB per file, and the whole
 * message stays under its 25 MiB request limit (core's plan splits by `maxMessageBytes`). Media
 * over those limits are `E_TOO_LARGE` before any is opened.
 */
export async function filesOf(media: readonly OutboundMedium[]): Promise<MessageFiles> {
  for (const medium of media) {
    if (medium.size > DISCORD_MAX_UPLOAD_BYTES)
      throw tooLarge(`"${medium.filename}"`, DISCORD_MAX_UPLOAD_BYTES, medium.size);
  }
  const total = media.reduce((sum, medium) => sum + medium.size, 0);
  if (total > DISCORD_MAX_MESSAGE_MEDIA_BYTES) {
    throw tooLarge("The files of one Discord message", DISCORD_MAX_MESSAGE_MEDIA_BYTES, total);
  }
  const files: RawFile[] = [];
  const attachments: MessageFiles["attachments"] = [];
  for (const [id, medium] of media.entries()) {
    const data = await collectBytes(medium.open(), DISCORD_MAX_UPLOAD_BYTES, `"${medium.filename}"`);
    files.push({ key: `files[${id}]`, name: medium.filename, data, contentType: medium.mime });
    attachments.push({ id, filename: medium.filename });
  }
  return { files, attachments };
}

/** The content of a message with media: its text, then the items' own captions (Discord has one text per message). */
export function contentOf(text: string, media: readonly OutboundMedium[]): string {
  return [text, ...media.map((medium) => medium.caption ?? "")].filter((part) => part.trim() !== "").join("\n\n");
}
