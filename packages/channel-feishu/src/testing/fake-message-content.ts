import type { FakeResources } from "./fake-resources.js";

/** A refusal of a message's content: Feishu's code and message. */
export interface ContentProblem {
  code: number;
  msg: string;
}

const invalid = (ext: string): ContentProblem => ({
  code: 230001,
  msg: `Your request contains an invalid request parameter, ext=${ext}`,
});

/**
 * What a message of each media type must carry (发送消息内容): the key of a medium this app
 * uploaded, uploaded as the type the message wants. `audio` takes an `opus` file, `media` an `mp4`
 * (with an optional cover `image_key`), `file` any other file type; a mismatch is 230055 ("The type
 * of file upload does not match the type of message being sent.", as Feishu answers it). A
 * `sticker` takes only the key of a sticker someone sent.
 */
const FILE_MESSAGE_TYPES: Record<string, (fileType: string | undefined) => boolean> = {
  audio: (fileType) => fileType === "opus",
  media: (fileType) => fileType === "mp4",
  file: (fileType) => fileType !== "opus" && fileType !== "mp4",
};

/** What is wrong with a message's `msg_type` and `content` (a JSON string), or undefined. */
export function contentProblem(
  msgType: unknown,
  content: unknown,
  resources: FakeResources,
): ContentProblem | undefined {
  if (typeof content !== "string") return invalid("content must be a JSON string");
  let parsed: Record<string, unknown>;
  try {
    parsed = (JSON.parse(content) ?? {}) as Record<string, unknown>;
  } catch {
    return invalid("content is not JSON");
  }
  switch (msgType) {
    case "text":
      return typeof parsed.text === "string" ? undefined : invalid("text is missing");
    case "post": {
      const locales = Object.values(parsed as Record<string, { content?: unknown }>);
      const valid =
        locales.length > 0 && locales.every((l) => Array.isArray(l?.content) && l.content.every(Array.isArray));
      return valid ? undefined : invalid("post content must be { <locale>: { title?, content: [[elements]] } }");
    }
    case "image": {
      const image = resources.get(String(parsed.image_key ?? ""));
      const sendable = image?.kind === "image" && image.owner === "app" && image.imageType === "message";
      return sendable ? undefined : invalid("invalid image_key");
    }
    case "sticker":
      return resources.get(String(parsed.file_key ?? ""))?.kind === "sticker" ? undefined : invalid("invalid file_key");
    case "audio":
    case "media":
    case "file": {
      const file = resources.get(String(parsed.file_key ?? ""));
      if (file?.kind !== "file" || file.owner !== "app") return invalid("invalid file_key");
      if (
        msgType === "media" &&
        parsed.image_key !== undefined &&
        resources.get(String(parsed.image_key))?.kind !== "image"
      ) {
        return invalid("invalid image_key");
      }
      const matches = FILE_MESSAGE_TYPES[msgType]?.(file.fileType) ?? false;
      return matches
        ? undefined
        : { code: 230055, msg: "The type of file upload does not match the type of message being sent." };
    }
    default:
      return invalid(`unsupported msg_type ${String(msgType)}`);
  }
}
