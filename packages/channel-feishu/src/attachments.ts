import type { Attachment, JsonValue } from "@chorus/core";

/**
 * What `download` needs of a Feishu medium (the attachment's `source`): the message it came in and
 * its key, and the `type` the message-resource API wants: `image` for images (also those inside
 * rich text), `file` for files, voice messages and videos (获取消息中的资源文件).
 */
export interface FeishuResourceSource {
  messageId: string;
  key: string;
  type: "image" | "file";
}

/** Message types that are a medium and nothing else: their text is "" once the medium is an attachment. */
export const MEDIUM_MESSAGE_TYPES: ReadonlySet<string> = new Set(["image", "file", "audio", "media", "location"]);

type Body = Record<string, unknown>;

/**
 * The media of a received message as attachments (DESIGN §2.6), read from its content as
 * 接收消息内容结构 describes it: `image` `{ image_key }`, `file` `{ file_key, file_name }`, `audio`
 * `{ file_key, duration }` (a voice recording: a voice note; milliseconds), `media` `{ file_key,
 * image_key, file_name, duration }` (a video and its cover), `location` `{ name, longitude, latitude }`
 * (strings), and a `post`'s `img` and `media` elements. Feishu states no type or size for any of
 * them; the download's Content-Type says the type. Stickers are left out: Feishu does not let apps
 * download them ("暂不支持获取表情包资源"), so they stay the text `[sticker]`.
 */
export function attachmentsOf(messageId: string, messageType: string, content: string): Attachment[] {
  const body = parse(content);
  if (!body) return [];
  const one = (attachment: Attachment | undefined) => (attachment ? [attachment] : []);
  switch (messageType) {
    case "image":
      return one(image(messageId, body));
    case "file":
      return one(file(messageId, body, "file"));
    case "audio":
      return one(file(messageId, body, "voice"));
    case "media":
      return one(file(messageId, body, "video"));
    case "location":
      return one(location(body));
    case "post":
      return postElements(body).flatMap((element) =>
        element.tag === "img"
          ? one(image(messageId, element))
          : element.tag === "media"
            ? one(file(messageId, element, "video"))
            : [],
      );
    default:
      return [];
  }
}

function image(messageId: string, body: Body): Attachment | undefined {
  if (typeof body.image_key !== "string" || body.image_key === "") return undefined;
  return {
    kind: "image",
    ...dimension("width", body.width),
    ...dimension("height", body.height),
    source: source({ messageId, key: body.image_key, type: "image" }),
  };
}

function file(messageId: string, body: Body, kind: "file" | "voice" | "video"): Attachment | undefined {
  if (typeof body.file_key !== "string" || body.file_key === "") return undefined;
  const duration = Number(body.duration);
  return {
    kind,
    ...(typeof body.file_name === "string" && body.file_name !== "" ? { filename: body.file_name } : {}),
    ...(body.duration !== undefined && Number.isFinite(duration) && duration >= 0 ? { durationMs: duration } : {}),
    source: source({ messageId, key: body.file_key, type: "file" }),
  };
}

function location(body: Body): Attachment | undefined {
  const latitude = Number(body.latitude);
  const longitude = Number(body.longitude);
  const valid = body.latitude !== undefined && body.longitude !== undefined && Number.isFinite(latitude + longitude);
  if (!valid || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  const name = typeof body.name === "string" && body.name.trim() !== "" ? { name: body.name } : {};
  return { kind: "location", location: { latitude, longitude, ...name } };
}

/** Every element of a post's paragraphs, whether it came flat (`{ title, content }`) or per locale. */
function postElements(body: Body): Body[] {
  const post = Array.isArray(body.content)
    ? body
    : Object.values(body).find((v) => Array.isArray((v as Body)?.content));
  const paragraphs = ((post as Body | undefined)?.content ?? []) as unknown[];
  return paragraphs.flatMap((paragraph) => (Array.isArray(paragraph) ? paragraph : [])).filter(isBody);
}

function dimension(name: "width" | "height", value: unknown): Partial<Attachment> {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? { [name]: value } : {};
}

function source(value: FeishuResourceSource): JsonValue {
  return { ...value };
}

function parse(content: string): Body | undefined {
  try {
    const body: unknown = JSON.parse(content);
    return isBody(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

function isBody(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
