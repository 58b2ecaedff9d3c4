import { anySignal, downloadMedium, type Redactor } from "@chorus/channel-kit";
import { type Attachment, type ChannelInstance, ChorusError } from "@chorus/core";
import type { MemoryConfig } from "./config.js";
import type { WireMessage } from "./wire.js";

/** A message's media, pin and contact card as attachments; each medium's `source` is its media id. */
export function attachmentsOf(message: WireMessage): Attachment[] {
  const media = (message.media ?? []).map(
    (m): Attachment => ({ kind: m.kind, mime: m.mime, size: m.size, filename: m.filename, source: { mediaId: m.id } }),
  );
  const location: Attachment[] = message.location ? [{ kind: "location", location: message.location }] : [];
  const contact: Attachment[] = message.contact ? [{ kind: "contact", contact: message.contact }] : [];
  return [...media, ...location, ...contact];
}

/**
 * Streams an attachment from `GET /v1/media/:id` through the kit's `downloadMedium`: capped at
 * `maxBytes` (a declared size over it fails before a byte is read), the token sent to the
 * platform's own origin only.
 */
export function createDownload(
  config: MemoryConfig,
  signal: AbortSignal,
  redactor: Redactor,
): Required<Pick<ChannelInstance, "download">> {
  const base = config.baseUrl.replace(/\/+$/u, "");
  return {
    async download(attachment, options) {
      const id = (attachment.source as { mediaId?: unknown } | undefined)?.mediaId;
      if (typeof id !== "string" || id === "") {
        throw new ChorusError(
          "E_INVALID_INPUT",
          `this ${attachment.kind} attachment has no memory media id to download`,
        );
      }
      try {
        return await downloadMedium(`${base}/v1/media/${encodeURIComponent(id)}`, {
          maxBytes: options.maxBytes,
          what: `memory medium ${id}`,
          headers: { authorization: `Bearer ${config.token}` },
          credentialOrigins: [new URL(base).origin],
          signal: options.signal ? anySignal([signal, options.signal]) : signal,
        });
      } catch (error) {
        throw redactor.error(error);
      }
    },
  };
}
