import type { MediaKind } from "@chorus/core";
import type { PlatformMessageMedia } from "@chorus/testkit";
import type { FakeFile, FakeMessage, FakeTalk } from "./testing/index.js";

/** The Nextcloud account the bot shares files as, in the tests. */
export const filesUser = { id: "chorus-bot", name: "Chorus Files" };

/**
 * How Talk shows a shared file: a voice message by its type (`voice-message`), everything else by
 * its `mimetype` (images, videos and audio inline, the rest as a file).
 */
export function shownKind(message: FakeMessage, file: FakeFile): MediaKind {
  if (message.messageType === "voice-message") return "voice";
  if (file.mimetype.startsWith("image/")) return "image";
  if (file.mimetype.startsWith("video/")) return "video";
  if (file.mimetype.startsWith("audio/")) return "audio";
  return "file";
}

/** The message a ref names (`ref:<referenceId>`) as Talk shows it: its file with its caption, or its text. */
export function shownOnTalk(fake: FakeTalk, messageId: string): PlatformMessageMedia {
  const referenceId = messageId.replace(/^ref:/u, "");
  const found = fake.sharedMessage(referenceId);
  if (!found) throw new Error(`fake Talk: no message with referenceId ${referenceId}`);
  const { message, file } = found;
  if (!file) return { media: [], text: message.message };
  const medium = {
    kind: shownKind(message, file),
    bytes: file.bytes,
    filename: file.path.split("/").pop() ?? file.path,
    ...(message.caption !== undefined ? { caption: message.caption } : {}),
  };
  return { media: [medium], ...(message.caption !== undefined ? { text: message.caption } : {}) };
}
