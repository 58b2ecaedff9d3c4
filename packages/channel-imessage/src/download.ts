import { anySignal, capStream, tooLarge } from "@chorus/channel-kit";
import { type Attachment, type ChannelInstance, ChorusError, type DownloadOptions } from "@chorus/core";
import type { IMessageFileSource } from "./attachments.js";
import type { BlueBubblesClient } from "./client.js";

/**
 * `download` (DESIGN §3): an attachment's bytes over the server's REST API, never from the Mac's
 * disk (the server runs on another machine): `GET /api/v1/attachment/:guid/download` with the
 * password, to the configured server only. Without `original` the server converts as it serves
 * (HEIC/HEIF/TIFF to JPEG, an audio message's CAF to M4A), so models get a JPEG, transcription an
 * M4A; the answer's type says which. `force=false`: an attachment the server does not know is its
 * plain 404 (with `force` it tries a Private API re-download of nothing and fails with a 500).
 * The body is streamed and capped at `maxBytes`; it is never held whole.
 */
export function createDownload(
  client: BlueBubblesClient,
  signal: AbortSignal,
): Required<Pick<ChannelInstance, "download">> {
  return {
    async download(attachment, options) {
      const source = sourceOf(attachment);
      const what = `iMessage attachment ${source.guid}`;
      if (attachment.size !== undefined && attachment.size > options.maxBytes) {
        throw tooLarge(what, options.maxBytes, attachment.size);
      }
      const lifetime = options.signal ? anySignal([signal, options.signal]) : signal;
      const response = await client.fetchFile(
        `/attachment/${encodeURIComponent(source.guid)}/download`,
        { force: "false" },
        { operation: `download ${what}`, signal: lifetime },
      );
      return answerOf(response, what, options);
    },
  };
}

async function answerOf(response: Response, what: string, options: DownloadOptions) {
  if (!response.body) throw new ChorusError("E_PLATFORM", `BlueBubbles server sent no bytes for ${what}`);
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  const size = Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
  if (size !== undefined && size > options.maxBytes) {
    await response.body.cancel().catch(() => undefined);
    throw tooLarge(what, options.maxBytes, size);
  }
  const mime = response.headers.get("content-type")?.split(";")[0]?.trim();
  return {
    stream: capStream(response.body, options.maxBytes, what),
    ...(mime ? { mime } : {}),
    ...(size !== undefined ? { size } : {}),
  };
}

function sourceOf(attachment: Attachment): IMessageFileSource {
  const guid = (attachment.source as { guid?: unknown } | null | undefined)?.guid;
  if (typeof guid === "string" && guid !== "") return { guid };
  throw new ChorusError("E_INVALID_INPUT", `This ${attachment.kind} attachment has no iMessage attachment GUID`, {
    details: { kind: attachment.kind },
  });
}
