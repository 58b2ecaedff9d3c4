import { anySignal, downloadMedium, tooLarge } from "@chorus/channel-kit";
import { type Attachment, type ChannelInstance, ChorusError } from "@chorus/core";
import type { NextcloudFileSource } from "./attachments.js";
import type { NextcloudDav } from "./dav.js";

/**
 * `download` (DESIGN §3): a shared file's bytes over WebDAV as the bot's files user — its path in
 * that user's files found by id (`SEARCH`), then a capped `GET` with the app password sent to the
 * server's own origin only. Without `files` the bot has no file access at all (the bot API has
 * none, and the file's `link` needs a login): a typed refusal that says how to get it, and where
 * the file is.
 */
export function createDownload(
  dav: NextcloudDav | undefined,
  signal: AbortSignal,
): NonNullable<ChannelInstance["download"]> {
  return async (attachment, options) => {
    const source = sourceOf(attachment);
    const what = `Nextcloud file "${source.name || source.fileId}"`;
    if (!dav) {
      throw new ChorusError(
        "E_UNSUPPORTED",
        `${what} cannot be downloaded: Talk's bot API has no file access${source.link ? ` (it is at ${source.link})` : ""}.`,
        {
          hint: "Give the bot a Nextcloud account for files: channels.nextcloud.files { user, appPassword }, and add that user to the conversation.",
          details: { fileId: source.fileId },
        },
      );
    }
    // Talk states the size: a file over the cap fails before anything is requested.
    if (attachment.size !== undefined && attachment.size > options.maxBytes) {
      throw tooLarge(what, options.maxBytes, attachment.size);
    }
    const both = options.signal ? anySignal([signal, options.signal]) : signal;
    const href = await dav.find(source.fileId, both);
    if (href === undefined) {
      throw new ChorusError(
        "E_MESSAGE_NOT_FOUND",
        `${what} is not among the files the bot's files user can see (it was deleted, or that user is not in the conversation).`,
        {
          hint: "Add the files user (channels.nextcloud.files.user) to the conversation.",
          details: { fileId: source.fileId },
        },
      );
    }
    const medium = await downloadMedium(new URL(href, dav.origin), {
      maxBytes: options.maxBytes,
      what,
      headers: { authorization: dav.authorization },
      credentialOrigins: [dav.origin],
      signal: both,
    });
    // WebDAV answers the stored type; what Talk said is as good where it answers octet-stream.
    const mime = medium.mime && medium.mime !== "application/octet-stream" ? medium.mime : attachment.mime;
    return {
      stream: medium.stream,
      ...(mime ? { mime } : {}),
      ...(medium.size !== undefined ? { size: medium.size } : {}),
    };
  };
}

function sourceOf(attachment: Attachment): NextcloudFileSource {
  const source = attachment.source as Partial<NextcloudFileSource> | null | undefined;
  if (typeof source?.fileId !== "string" || source.fileId === "") {
    throw new ChorusError("E_INVALID_INPUT", `This ${attachment.kind} attachment names no Nextcloud file to download.`);
  }
  return {
    fileId: source.fileId,
    name: typeof source.name === "string" ? source.name : "",
    ...(typeof source.link === "string" ? { link: source.link } : {}),
  };
}
