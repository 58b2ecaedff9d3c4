import { type Attachment, type AttachmentKind, formatBytes, locationText } from "@chorus/core";
import { oneLine } from "../support/index.js";
import type { ItemRecord } from "./types.js";

/** What each kind is called in the line the agent reads. */
const NOUNS: Record<AttachmentKind, string> = {
  image: "photo",
  video: "video",
  audio: "audio",
  voice: "voice note",
  file: "file",
  sticker: "sticker",
  location: "location",
  contact: "contact",
};

/** What the line of one attachment says beyond its head: a transcript, a file's text, or why there is none. */
export interface LineBody {
  /** A voice note's or audio's words. */
  transcript?: string | undefined;
  /** Why there is no transcript (`no agents.defaults.transcription`, the endpoint's refusal). */
  untranscribed?: string | undefined;
  /** A PDF's or text file's text, already cut to the limit. */
  text?: string | undefined;
  /** Why a file's text could not be read. */
  unreadable?: string | undefined;
  /** Why an image is a line and not image input. */
  unseen?: string | undefined;
}

/** `0:12`, `3:05`, `1:02:03`. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/**
 * The line of one attachment as the agent reads it (DESIGN §2.6), naming its `mediaId` so the agent
 * can send it on: `[photo image.png, 12 KB, mediaId med_…]`, `[voice note 0:12, mediaId med_…] <words>`,
 * a file's name, type and size then its text, a location's place and map link, a contact's name and
 * numbers; one that could not be downloaded says so and why. Names people chose are made one line,
 * brackets as parentheses, so a file name cannot write a line of its own.
 */
export function attachmentLine(attachment: Attachment, item: ItemRecord | undefined, body: LineBody = {}): string {
  const noun = NOUNS[attachment.kind] ?? "attachment";
  if (attachment.kind === "location" && attachment.location) return `[location] ${locationText(attachment.location)}`;
  if (attachment.kind === "contact" && attachment.contact) {
    const { name, phones = [] } = attachment.contact;
    return `[contact ${[oneLine(name), ...phones.map((phone) => oneLine(phone, 40))].filter(Boolean).join(", ")}]`;
  }
  const head = headOf(noun, attachment, item);
  if (item?.failed !== undefined) return `${head} (could not be downloaded: ${oneLine(item.failed, 300)})`;
  if (body.transcript !== undefined) return `${head} ${body.transcript.trim()}`;
  if (body.untranscribed !== undefined) return `${head} (not transcribed: ${oneLine(body.untranscribed, 300)})`;
  if (body.text !== undefined) return `${head}\n${body.text}`;
  if (body.unreadable !== undefined) return `${head} (text not readable: ${oneLine(body.unreadable, 300)})`;
  if (body.unseen !== undefined) return `${head} (${oneLine(body.unseen, 300)})`;
  return head;
}

function headOf(noun: string, attachment: Attachment, item: ItemRecord | undefined): string {
  // A voice note's file name says nothing (`voice.ogg`, `PTT-2024…`): its duration does.
  const voice = attachment.kind === "voice";
  const name = voice ? undefined : (item?.filename ?? attachment.filename);
  const size = item?.size ?? attachment.size;
  const parts = [
    name === undefined ? "" : oneLine(name),
    attachment.durationMs === undefined ? "" : formatDuration(attachment.durationMs),
    attachment.kind === "file" ? oneLine(item?.mime ?? attachment.mime ?? "") : "",
    voice || size === undefined ? "" : formatBytes(size),
    item?.mediaId === undefined ? "" : `mediaId ${item.mediaId}`,
  ].filter((part) => part !== "");
  return parts.length === 0 ? `[${noun}]` : `[${noun} ${parts.join(", ")}]`;
}

/** One attachment line the agent was shown, read back (the demo agent answers from it). */
export interface ReadLine {
  /** `photo`, `voice note`, `file`, … */
  noun: string;
  /** What the head says between the noun and the `mediaId`: `image.png, 12 KB`. */
  detail: string;
  mediaId?: string;
  /** Where the line starts in the text. */
  at: number;
}

const LINE = /^\[(photo|video|audio|voice note|file|sticker|location|contact)(?: ([^\]\n]*))?\]/gmu;

/** The attachment lines in a text, in order (see `attachmentLine`). */
export function readAttachmentLines(text: string): ReadLine[] {
  const found: ReadLine[] = [];
  for (const match of text.matchAll(LINE)) {
    const all = match[2] ?? "";
    const at = all.lastIndexOf("mediaId ");
    const detail = (at === -1 ? all : all.slice(0, at)).replace(/,\s*$/u, "").trim();
    const mediaId = at === -1 ? undefined : all.slice(at + "mediaId ".length).trim();
    found.push({ noun: match[1] as string, detail, ...(mediaId ? { mediaId } : {}), at: match.index });
  }
  return found;
}
