import { type Attachment, formatBytes } from "@chorus/core";
import type { ModelProvider } from "../config/index.js";
import type { ItemRecord } from "./types.js";

/** Image types every provider takes as image input (OpenAI, Anthropic, Gemini, Ollama's vision models). */
/** The image types every model provider takes as image input. */
export const MODEL_IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

/** Bytes of one image a provider takes: Anthropic's API 5 MB, OpenAI's and Gemini's inline data 20 MB. */
export function imageLimit(provider: ModelProvider): number {
  return provider === "anthropic" ? 5 * 1024 * 1024 : 20 * 1024 * 1024;
}

/** Whether an attachment is a picture (a photo, or a sticker, which is an image too). */
export function isPicture(attachment: Attachment): boolean {
  return attachment.kind === "image" || attachment.kind === "sticker";
}

/**
 * Why a stored picture cannot be image input for `provider` (a type no provider takes, or over its
 * size), or undefined when it can.
 */
export function unseenBecause(item: ItemRecord, provider: ModelProvider): string | undefined {
  const mime = (item.mime ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!MODEL_IMAGE_TYPES.has(mime)) return `not shown: ${mime || "its type"} is not an image type models take`;
  const limit = imageLimit(provider);
  if (item.size !== undefined && item.size > limit)
    return `not shown: ${formatBytes(item.size)}, over the ${formatBytes(limit)} the model takes`;
  return undefined;
}
