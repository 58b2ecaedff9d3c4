import { type MediaCapabilities, sendLimitOf } from "../media/capabilities.js";
import { formatBytes } from "../media/format.js";
import type { MediaKind } from "../media/kinds.js";

/** Kinds a channel uploads (a location is a pin, not an upload). */
export function uploadKindsOf(media: MediaCapabilities): MediaKind[] {
  return media.linkOnly ? [] : media.send.filter((kind) => kind !== "location");
}

/** Whether the agent may pass `media` on this channel: it uploads something, or links to media. */
export function offersMedia(media: MediaCapabilities): boolean {
  return uploadKindsOf(media).length > 0 || media.linkOnly === true;
}

/** What a channel does with media, in words the agent reads in the tool description (DESIGN §2.5, §2.6). */
export function describeMediaRules(media: MediaCapabilities): string[] {
  const rules: string[] = [];
  const uploads = uploadKindsOf(media);
  if (media.linkOnly) {
    rules.push("Media go out as links here (the platform takes no uploads).");
  } else if (uploads.length > 0) {
    const limits = uploads.map((kind) => `${kind} up to ${formatBytes(sendLimitOf(media, kind))}`);
    rules.push(`Media sent natively: ${limits.join(", ")}; other kinds go out as a file.`);
    if (media.perMessage > 1)
      rules.push(`Up to ${media.perMessage} items per message; more are sent as several messages.`);
    rules.push(
      media.caption
        ? "text becomes the caption of the first item."
        : "text is sent as its own message before the media.",
    );
  }
  rules.push(
    media.send.includes("location") && !media.linkOnly
      ? "location sends a map pin."
      : "location is sent as text with the coordinates and a map link.",
  );
  return rules;
}
