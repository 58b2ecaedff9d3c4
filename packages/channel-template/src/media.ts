import { anySignal, downloadMedium } from "@chorus/channel-kit";
import { type Attachment, type ChannelInstance, ChorusError } from "@chorus/core";
import type { AcmeConfig } from "./config.js";
import type { AcmeMessage } from "./wire.js";

/** Acme's limit on one file, sent or received (8 MB). */
export const ACME_MAX_FILE_BYTES = 8 * 1024 * 1024;

/** An Acme message's file and pin as attachments; a file's `source` is the URL Acme serves it at. */
export function attachmentsOf(message: AcmeMessage): Attachment[] {
  const { file, location } = message;
  const attachments: Attachment[] = [];
  if (file) {
    attachments.push({
      kind: file.kind,
      filename: file.name,
      ...(file.mime_type !== undefined && { mime: file.mime_type }),
      ...(file.size !== undefined && { size: file.size }),
      source: { url: file.url },
    });
  }
  if (location) {
    const { lat: latitude, lng: longitude, name } = location;
    attachments.push({ kind: "location", location: { latitude, longitude, ...(name !== undefined && { name }) } });
  }
  return attachments;
}

/**
 * `download`: streams an attachment from its URL with the kit's `downloadMedium` — capped at
 * `maxBytes` (a declared size over it fails before a byte is read), and the token sent only to
 * Acme's own origin, never to another host a payload names.
 */
export function createMedia(config: AcmeConfig, signal: AbortSignal): Pick<ChannelInstance, "download"> {
  return {
    async download(attachment, options) {
      const url = (attachment.source as { url?: unknown } | undefined)?.url;
      if (typeof url !== "string") throw new ChorusError("E_INVALID_INPUT", "this attachment has no Acme file URL");
      return downloadMedium(url, {
        maxBytes: options.maxBytes,
        what: `Acme file "${attachment.filename ?? attachment.kind}"`,
        headers: { authorization: `Bearer ${config.token}` },
        credentialOrigins: [new URL(config.baseUrl).origin],
        signal: options.signal ? anySignal([signal, options.signal]) : signal,
      });
    },
  };
}
