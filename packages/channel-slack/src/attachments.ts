import type { Attachment, AttachmentKind } from "@chorus/core";

/** Why Slack will not hand over a file's bytes. */
export type SlackFileUnavailable = "deleted" | "hidden_by_limit" | "access_denied" | "external" | "unreadable";

/** What `download` needs of a Slack file: the attachment's `source`. */
export interface SlackFileSource {
  readonly fileId: string;
  /** `url_private_download` (else `url_private`); absent for a Slack Connect stub, found with `files.info`. */
  readonly url?: string;
  /** Set when Slack keeps the bytes from the bot; `download` says why. */
  readonly unavailable?: SlackFileUnavailable;
  /** Where an external file lives (`gdrive`, `dropbox`). */
  readonly externalType?: string;
}

/**
 * The files of a message as attachments (DESIGN §2.6), every one of them, in order: Slack's file
 * object (https://api.slack.com/types/file) gives `mimetype`, `size`, `name` (which "may be null"),
 * `original_w`/`original_h` for images. Audio clips recorded in Slack carry `subtype: "slack_audio"`
 * (a voice note, `duration_ms`), video clips `slack_video`. A file Slack will not give the bot
 * (`mode: "tombstone"` once deleted, `hidden_by_limit` on a free plan, `file_access:
 * "access_denied"`, a file hosted elsewhere) is still an attachment, so the agent learns it was
 * there and why it cannot be read.
 */
export function attachmentsOf(files: readonly unknown[] | undefined): Attachment[] {
  return (files ?? []).map(attachmentOf);
}

/** A Slack Connect stub: `"file_access": "check_file_info"`, to be completed with `files.info` (file object docs). */
export function isFileStub(file: unknown): file is { id: string } {
  const f = file as { id?: unknown; file_access?: unknown } | null;
  return typeof f?.id === "string" && f.file_access === "check_file_info";
}

function attachmentOf(raw: unknown): Attachment {
  const file = (raw !== null && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const id = text(file.id) ?? "";
  const mime = text(file.mimetype);
  const filename = text(file.name) ?? text(file.title);
  const size = whole(file.size);
  const durationMs = whole(file.duration_ms);
  const width = whole(file.original_w);
  const height = whole(file.original_h);
  return {
    kind: kindOf(mime, text(file.subtype), text(file.media_display_type)),
    ...(mime ? { mime } : {}),
    ...(size !== undefined ? { size } : {}),
    ...(filename ? { filename } : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(width !== undefined ? { width } : {}),
    ...(height !== undefined ? { height } : {}),
    source: { ...sourceOf(id, file) },
  };
}

function sourceOf(id: string, file: Record<string, unknown>): SlackFileSource {
  const unavailable = unavailableOf(id, file);
  const url = text(file.url_private_download) ?? text(file.url_private);
  const externalType = text(file.external_type);
  return {
    fileId: id,
    ...(url && !unavailable ? { url } : {}),
    ...(unavailable ? { unavailable } : {}),
    ...(unavailable === "external" && externalType ? { externalType } : {}),
  };
}

function unavailableOf(id: string, file: Record<string, unknown>): SlackFileUnavailable | undefined {
  if (id === "") return "unreadable";
  if (file.mode === "tombstone") return "deleted";
  if (file.mode === "hidden_by_limit") return "hidden_by_limit";
  if (file.file_access === "access_denied") return "access_denied";
  if (file.is_external === true || file.mode === "external") return "external";
  return undefined;
}

/**
 * The kind of a file: a clip recorded in Slack by its `subtype` (some `slack_audio` clips are
 * labelled `video/mp4`), else by its media type.
 */
function kindOf(mime: string | undefined, subtype: string | undefined, display: string | undefined): AttachmentKind {
  if (subtype === "slack_audio") return "voice";
  if (subtype === "slack_video") return "video";
  if (display === "audio" && mime?.startsWith("video/")) return "audio";
  if (mime?.startsWith("image/")) return "image";
  if (mime?.startsWith("video/")) return "video";
  if (mime?.startsWith("audio/")) return "audio";
  return "file";
}

/** A non-empty string (Slack's RTM examples print `""` for fields it left out). */
function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function whole(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
