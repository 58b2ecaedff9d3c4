import { capStream } from "@chorus/channel-kit";
import {
  type Attachment,
  type ChannelCapabilities,
  type ChannelInstance,
  type ChannelPlugin,
  mediaOf,
  toChorusError,
} from "@chorus/core";
import { isStateUnavailable } from "../state/index.js";
import type { ItemRecord, MediaAccess } from "./types.js";

/** What one download needs: the channel that delivered the attachment, the store, the caps. */
export interface IntakeContext {
  plugin: Pick<ChannelPlugin<unknown>, "label">;
  /** The account's capabilities: its media as its config gives them. */
  capabilities: Pick<ChannelCapabilities, "media">;
  /** The running instance of the channel account, or undefined while it is (re)starting. */
  instance: Pick<ChannelInstance, "download"> | undefined;
  store: Pick<MediaAccess, "put">;
  /** `media.maxBytes`. */
  maxBytes: number;
  /** Takes the account's secrets out of a platform's error before the agent reads it. */
  redact(text: string): string;
  /** Counts the bytes of an attachment stored (`chorus_media_bytes_total`, in). */
  counted?: ((bytes: number) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/** Kinds that are data on the message, not bytes to download. */
const INLINE = new Set(["location", "contact"]);

/** Whether an attachment has bytes to download (not a location or a contact card). */
export function hasBytes(attachment: Attachment): boolean {
  return !INLINE.has(attachment.kind);
}

/**
 * Downloads one attachment through its channel's `download` into the store (DESIGN §2.6), capped at
 * the smaller of the plugin's `maxReceiveBytes` and `media.maxBytes`: its `mediaId` and what the
 * store found the bytes to be, or why it could not (too large, gone, the platform's refusal) — never
 * a silent drop. Only an abort (shutdown) or the state database gone rejects: the message is then
 * decided again.
 * `keep` is false for a failure that may pass (the channel restarting, the platform's 5xx): it is
 * not kept with the message, and reading the message again tries again.
 */
export async function intake(
  attachment: Attachment,
  context: IntakeContext,
): Promise<{ item: ItemRecord; keep: boolean }> {
  const { instance, store, signal } = context;
  const what = `the ${attachment.kind === "image" ? "photo" : attachment.kind === "voice" ? "voice note" : attachment.kind}`;
  if (!instance) return { item: { failed: `${context.plugin.label} is not running` }, keep: false };
  if (!instance.download)
    return { item: { failed: `${context.plugin.label} cannot download attachments` }, keep: true };
  const receive = mediaOf(context.capabilities).maxReceiveBytes;
  const maxBytes = receive > 0 ? Math.min(receive, context.maxBytes) : context.maxBytes;
  try {
    const medium = await instance.download(attachment, { maxBytes, ...(signal ? { signal } : {}) });
    const stored = await store.put(capStream(medium.stream, maxBytes, what), {
      maxBytes,
      filename: attachment.filename,
      signal,
    });
    context.counted?.(stored.size);
    return {
      item: { mediaId: stored.mediaId, mime: stored.mime, size: stored.size, filename: stored.filename },
      keep: true,
    };
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    // The state database gone (the store is on it): the pipeline waits for it, and the message is decided again.
    if (isStateUnavailable(error)) throw error;
    const failure = toChorusError(error);
    return { item: { failed: context.redact(`${failure.code}: ${failure.message}`) }, keep: !failure.retryable };
  }
}
