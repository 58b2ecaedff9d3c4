import { randomUUID } from "node:crypto";
import { tooLarge } from "@chorus/channel-kit";
import { ChorusError, locationText, type OutboundMedium, type OutboundMessage } from "@chorus/core";
import type { BlueBubblesClient, FilePart } from "./client.js";
import { BLUEBUBBLES_MAX_UPLOAD_BYTES } from "./media.js";
import type { BlueBubblesMessage, MessagePart } from "./wire.js";

/** Where a message goes and how: its chat, the message it answers, whether the Private API is used. */
export interface MediaTarget {
  readonly chatGuid: string;
  /** `selectedMessageGuid` and `partIndex` of an inline reply (the server then uses the Private API). */
  readonly reply?: { guid: string; part: number } | undefined;
  readonly privateApi: boolean;
}

/** Sends one text message (the outbound's own `message/text`), as an inline reply when `reply` is given; resolves with its GUID. */
export type SendText = (
  text: string,
  method: "private-api" | "apple-script",
  reply: MediaTarget["reply"],
) => Promise<string>;

/**
 * Refuses, before anything is sent, what the server would refuse part-way: a file over its 1 GiB
 * (`BLUEBUBBLES_MAX_UPLOAD_BYTES`) or an empty one ("Attachment not provided or was empty!").
 */
export function checkMedia(media: readonly OutboundMedium[]): void {
  for (const medium of media) {
    if (medium.size > BLUEBUBBLES_MAX_UPLOAD_BYTES) {
      throw tooLarge(`"${medium.filename}"`, BLUEBUBBLES_MAX_UPLOAD_BYTES, medium.size);
    }
    if (medium.size === 0) {
      throw new ChorusError("E_INVALID_INPUT", `"${medium.filename}" is empty: BlueBubbles sends no empty files`);
    }
  }
}

/**
 * Sends a message with media; resolves with the GUIDs of the messages it made, in order.
 * - With the Private API: a voice note alone as an audio message (`/message/attachment` with
 *   `isAudioMessage`); one file without a caption as `/message/attachment`; files with captions,
 *   or several, uploaded (`/attachment/upload`) and sent as one iMessage of parts
 *   (`/message/multipart`: each file, then its caption).
 * - With AppleScript: each file as its own `/message/attachment`, its caption a text sent before
 *   it (the route carries no text), a voice note as an audio file (AppleScript cannot mark it).
 * The message's own text (and a location, as text) leads the first file's caption.
 */
export async function sendMedia(
  client: BlueBubblesClient,
  target: MediaTarget,
  message: OutboundMessage,
  sendText: SendText,
): Promise<string[]> {
  const media = message.media ?? [];
  const lead = [message.text, message.location ? locationText(message.location) : ""];
  const captions = media.map((medium, i) =>
    [...(i === 0 ? lead : []), medium.caption ?? ""].filter((t) => t.trim() !== "").join("\n\n"),
  );
  const sent: string[] = [];
  let reply = target.reply;
  /** The reply goes with the first message sent, and only with it. */
  const replyOnce = () => {
    const once = reply;
    reply = undefined;
    return once;
  };
  const items = media.map((medium, i) => ({ medium, caption: captions[i] as string }));
  if (!target.privateApi) {
    for (const { medium, caption } of items) {
      if (caption !== "") sent.push(await sendText(caption, "apple-script", replyOnce()));
      sent.push(await sendFile(client, target.chatGuid, medium, { method: "apple-script", reply: replyOnce() }));
    }
    return sent;
  }
  const voices = items.filter((item) => item.medium.kind === "voice");
  const files = items.filter((item) => item.medium.kind !== "voice");
  for (const { medium, caption } of voices) {
    if (caption !== "") sent.push(await sendText(caption, "private-api", replyOnce()));
    const options = { method: "private-api" as const, audioMessage: true, reply: replyOnce() };
    sent.push(await sendFile(client, target.chatGuid, medium, options));
  }
  const only = files.length === 1 ? files[0] : undefined;
  if (only && only.caption === "") {
    sent.push(await sendFile(client, target.chatGuid, only.medium, { method: "private-api", reply: replyOnce() }));
  } else if (files.length > 0) {
    sent.push(await sendParts(client, target.chatGuid, files, replyOnce()));
  }
  return sent;
}

/** One file as one message (`/message/attachment`). */
async function sendFile(
  client: BlueBubblesClient,
  chatGuid: string,
  medium: OutboundMedium,
  options: { method: "private-api" | "apple-script"; audioMessage?: boolean; reply: MediaTarget["reply"] },
): Promise<string> {
  const file = fileOf(medium, options.audioMessage === true);
  const tempGuid = `temp-${randomUUID()}`;
  const fields: Record<string, string> = {
    chatGuid,
    tempGuid,
    name: file.filename,
    method: options.method,
    ...(options.audioMessage ? { isAudioMessage: "true" } : {}),
    ...(options.reply ? { selectedMessageGuid: options.reply.guid, partIndex: String(options.reply.part) } : {}),
  };
  return guidOf(await client.sendAttachment(fields, file), tempGuid);
}

/** Files and their captions as one iMessage: each uploaded, then `/message/multipart`. */
async function sendParts(
  client: BlueBubblesClient,
  chatGuid: string,
  items: readonly { medium: OutboundMedium; caption: string }[],
  reply: MediaTarget["reply"],
): Promise<string> {
  const parts: MessagePart[] = [];
  for (const { medium, caption } of items) {
    const file = fileOf(medium, false);
    const path = await client.uploadAttachment(file);
    if (!path) throw new ChorusError("E_PLATFORM", `BlueBubbles server took "${file.filename}" but named no path`);
    parts.push({ partIndex: parts.length, attachment: path, name: file.filename });
    if (caption !== "") parts.push({ partIndex: parts.length, text: caption });
  }
  const tempGuid = `temp-${randomUUID()}`;
  const bytes = items.reduce((sum, item) => sum + item.medium.size, 0);
  const body = {
    chatGuid,
    tempGuid,
    parts,
    ...(reply ? { selectedMessageGuid: reply.guid, partIndex: reply.part } : {}),
  };
  const sent = await client.sendMultipart(body, bytes);
  return guidOf(sent, tempGuid);
}

/**
 * A medium as the server takes it: its name a plain file name (the server joins it into a path on
 * the Mac), and an MP3 voice note named `.mp3`, which the server turns into the CAF of an audio
 * message (`MessageInterface.sendAttachmentPrivateApi` converts only paths ending in `.mp3`).
 */
function fileOf(medium: OutboundMedium, audioMessage: boolean): FilePart {
  // The kit's multipart body escapes quotes and line breaks in it; slashes would reach the Mac's path.
  let filename = medium.filename.replace(/[\\/]/gu, "_").trim();
  if (filename === "" || /^\.+$/u.test(filename)) filename = medium.kind;
  if (audioMessage && /^audio\/(mpeg|mp3)$/iu.test(medium.mime) && !/\.mp3$/iu.test(filename)) filename += ".mp3";
  return { filename, mime: medium.mime, size: medium.size, open: () => medium.open() };
}

function guidOf(sent: BlueBubblesMessage | undefined, tempGuid: string): string {
  return typeof sent?.guid === "string" && sent.guid !== "" ? sent.guid : tempGuid;
}
