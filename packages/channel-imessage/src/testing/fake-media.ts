import type { FakeAttachment, FakeBlueBubblesState, FakeMessage } from "./fake-state.js";

/** A file someone sends from their iPhone, as chat.db records it. */
export interface FakeFileInput {
  bytes: Uint8Array;
  transferName: string;
  /** chat.db's `mime_type`; null (the default) where Messages set none. */
  mimeType?: string | null;
  /** chat.db's UTI; defaults from the type (`com.apple.coreaudio-format` for an audio message). */
  uti?: string;
  /** What the Mac's `sips`/`afconvert` make of it when the server serves it (HEIC → JPEG, CAF → M4A). */
  converted?: FakeAttachment["converted"];
  height?: number;
  width?: number;
  durationSeconds?: number;
}

/** A file as the server holds it, shown the way Messages shows it. */
export interface FakeShownFile {
  kind: "image" | "video" | "audio" | "voice" | "file" | "sticker";
  bytes: Uint8Array;
  filename: string;
  mimeType: string | null;
}

/** UTIs by MIME type, as Launch Services names them. */
const UTIS: Record<string, string> = {
  "image/png": "public.png",
  "image/jpeg": "public.jpeg",
  "image/heic": "public.heic",
  "image/webp": "org.webmproject.webp",
  "image/gif": "com.compuserve.gif",
  "video/mp4": "public.mpeg-4",
  "video/quicktime": "com.apple.quicktime-movie",
  "audio/mpeg": "public.mp3",
  "audio/x-caf": "com.apple.coreaudio-format",
  "application/pdf": "com.adobe.pdf",
};

/**
 * A message with files from `handle`: its text is chat.db's `universalText`, one U+FFFC per file
 * before what they typed (`text`, "" for none).
 */
export function addUserFiles(
  state: FakeBlueBubblesState,
  input: { chatGuid: string; from: string; text?: string | undefined; files: readonly FakeFileInput[] },
): FakeMessage {
  const attachments = input.files.map((file) => addFile(state, file, false).guid);
  return state.addMessage({
    chatGuid: input.chatGuid,
    text: `${"\uFFFC".repeat(attachments.length)}${input.text ?? ""}`,
    handle: input.from,
    isFromMe: false,
    attachments,
  });
}

/**
 * A sticker `from` placed on message `on`: a row of `associatedMessageType` "sticker"
 * (`MessageTypeTransformer`, chat.db 1000) pointing at it, the sticker its attachment.
 */
export function addUserSticker(
  state: FakeBlueBubblesState,
  input: { on: FakeMessage; from: string; file: FakeFileInput },
): FakeMessage {
  const sticker = addFile(state, input.file, true);
  return state.addMessage({
    chatGuid: input.on.chatGuid,
    text: "\uFFFC",
    handle: input.from,
    isFromMe: false,
    associatedMessageGuid: `p:0/${input.on.guid}`,
    associatedMessageType: "sticker",
    attachments: [sticker.guid],
  });
}

/** The files of a message as the server keeps them, shown as Messages shows them; its text without placeholders. */
export function shownMessage(
  state: FakeBlueBubblesState,
  message: FakeMessage,
): { files: FakeShownFile[]; text: string } {
  const files = (message.attachments ?? []).flatMap((guid) => {
    const file = state.attachments.get(guid);
    return file ? [shownFile(file, message)] : [];
  });
  return { files, text: message.text.replace(/\uFFFC/gu, "").trim() };
}

/** How Messages shows a file: an audio message by its flag, a sticker by its own, else by type. */
export function shownFile(file: FakeAttachment, message: Pick<FakeMessage, "isAudioMessage">): FakeShownFile {
  const type = (file.mimeType ?? "").toLowerCase();
  const kind: FakeShownFile["kind"] = file.isSticker
    ? "sticker"
    : message.isAudioMessage
      ? "voice"
      : type.startsWith("image/")
        ? "image"
        : type.startsWith("video/")
          ? "video"
          : type.startsWith("audio/")
            ? "audio"
            : "file";
  return { kind, bytes: file.bytes, filename: file.transferName, mimeType: file.mimeType };
}

function addFile(state: FakeBlueBubblesState, file: FakeFileInput, isSticker: boolean): FakeAttachment {
  const mimeType = file.mimeType === undefined ? null : file.mimeType;
  return state.addAttachment({
    uti: file.uti ?? UTIS[mimeType ?? ""] ?? "public.data",
    mimeType,
    transferName: file.transferName,
    bytes: file.bytes,
    isSticker,
    isOutgoing: false,
    ...(file.converted ? { converted: file.converted } : {}),
    ...(file.height !== undefined ? { height: file.height } : {}),
    ...(file.width !== undefined ? { width: file.width } : {}),
    ...(file.durationSeconds !== undefined ? { durationSeconds: file.durationSeconds } : {}),
  });
}
