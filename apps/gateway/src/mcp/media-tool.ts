import { collectBytes } from "@chorus/channel-kit";
import { ChorusError, formatBytes, toChorusError, z } from "@chorus/core";
import type { MediaLinks, MediaStore, StoredMedium } from "../media/index.js";
import { extractText, MODEL_IMAGE_TYPES, readableAs } from "../understand/index.js";
import type { McpContent } from "./content.js";
import type { McpTool, McpToolResult } from "./server.js";

/** What `get_media` reads media with. */
export interface McpMediaOptions {
  store: Pick<MediaStore, "open">;
  /** Signed links, where `gateway.publicUrl` is set. */
  links: Pick<MediaLinks, "link">;
  /** `media.maxBytes`: the most of a PDF or text file read for its text. */
  maxBytes: number;
  /** `media.maxExtractChars`: how much of a PDF's or text file's text is given. */
  maxExtractChars: number;
}

/** The largest picture or audio `get_media` returns inline (base64 in the tool result). */
export const INLINE_MAX_BYTES = 5 * 1024 * 1024;

/** Picture types MCP clients and the models behind them show. */

const NOTHING = new Uint8Array();

const mediaInput = z
  .object({
    mediaId: z
      .string()
      .min(1)
      .max(200)
      .describe("The medium's id (med_…): an attachment's mediaId from an event or recent_messages."),
  })
  .strict();

/** `get_media` as `tools/list` shows it. */
export function mediaToolDefinition(maxExtractChars: number): McpTool {
  return {
    name: "get_media",
    description:
      "Shows a medium of the gateway's store by its mediaId (a photo, voice note or file someone sent: attachments carry their mediaId on events and in recent_messages). " +
      `A photo or sticker (PNG, JPEG, GIF, WebP) comes back as an image and audio or a voice note as audio, each up to ${formatBytes(INLINE_MAX_BYTES)}; ` +
      `a PDF or text file as its text (up to ${maxExtractChars} characters); anything else, or anything bigger, as its name, type and size, ` +
      "with a link when the gateway has a public URL (gateway.publicUrl). To send it on, pass media: [{ mediaId }] to a message tool.",
    inputSchema: z.toJSONSchema(mediaInput) as McpTool["inputSchema"],
  };
}

/** How `get_media` gave the medium. */
type ShownAs = "image" | "audio" | "text" | "facts";

/**
 * `get_media`: the medium as MCP content — first its facts as JSON text (also the structured
 * content), then an image or audio block, its text, or a resource link. An unknown id is
 * `E_MESSAGE_NOT_FOUND` naming it.
 */
export async function getMedia(args: unknown, options: McpMediaOptions): Promise<McpToolResult> {
  const parsed = mediaInput.safeParse(args);
  if (!parsed.success)
    throw new ChorusError("E_INVALID_INPUT", "invalid arguments: mediaId must be a media id (med_…)");
  const { medium, stream } = await options.store.open(parsed.data.mediaId);
  const url = options.links.link(medium.mediaId);
  const mime = (medium.mime.split(";")[0] ?? medium.mime).trim().toLowerCase();
  const inline: "image" | "audio" | undefined = MODEL_IMAGE_TYPES.has(mime)
    ? "image"
    : mime.startsWith("audio/")
      ? "audio"
      : undefined;
  const content: McpContent[] = [];
  let shownAs: ShownAs = "facts";
  let note: string | undefined;
  try {
    if (inline && medium.size <= INLINE_MAX_BYTES) {
      const bytes = await collectBytes(stream, INLINE_MAX_BYTES, `"${medium.filename}"`);
      content.push({ type: inline, data: Buffer.from(bytes).toString("base64"), mimeType: mime });
      shownAs = inline;
    } else if (inline) {
      note = `${formatBytes(medium.size)}: over the ${formatBytes(INLINE_MAX_BYTES)} shown inline`;
    } else if (readableAs(medium, NOTHING) !== undefined) {
      const read = await textOf(medium, stream, options);
      if ("text" in read) {
        content.push({ type: "text", text: read.text });
        shownAs = "text";
      } else note = read.note;
    }
  } finally {
    await stream.cancel().catch(() => undefined);
  }
  if (shownAs === "facts") {
    note ??= "not a type shown inline";
    if (url) content.push(resourceLink(medium, url));
    else note += `; GET /v1/media/${medium.mediaId} with the API token returns it`;
  }
  const facts = {
    ok: true,
    mediaId: medium.mediaId,
    kind: medium.kind,
    mime: medium.mime,
    size: medium.size,
    filename: medium.filename,
    ...(url ? { url } : {}),
    shownAs,
    ...(note ? { note } : {}),
  };
  return { content: [{ type: "text", text: JSON.stringify(facts) }, ...content], structuredContent: facts };
}

/** A PDF's or text file's text, or why it has none (its bytes are no text, a damaged PDF). */
async function textOf(
  medium: StoredMedium,
  stream: ReadableStream<Uint8Array>,
  options: McpMediaOptions,
): Promise<{ text: string } | { note: string }> {
  try {
    const bytes = await collectBytes(stream, options.maxBytes, `"${medium.filename}"`);
    const as = readableAs(medium, bytes);
    if (as === undefined) return { note: "its bytes are not text" };
    return { text: await extractText(bytes, as, options.maxExtractChars) };
  } catch (error) {
    return { note: `text not readable: ${toChorusError(error).message}` };
  }
}

function resourceLink(medium: StoredMedium, url: string): McpContent {
  return {
    type: "resource_link",
    uri: url,
    name: medium.filename,
    mimeType: medium.mime,
    size: medium.size,
    description: `${medium.kind}, ${formatBytes(medium.size)}; a signed link that expires`,
  };
}
