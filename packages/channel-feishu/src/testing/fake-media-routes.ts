import { type FakeResponse, mediumResponse, type RequestContext } from "@chorus/testkit";
import { fail, ok } from "./fake-im.js";
import { type FakeFileType, FakeResources, FILE_TYPES, imageFormatOf } from "./fake-resources.js";
import type { FakeFeishuState } from "./fake-state.js";

/** Feishu's size limits, which a test may lower so it needs no large buffers. */
export interface FakeMediaLimits {
  /** 上传图片: "上传的图片大小不能超过 10 MB". */
  maxImageBytes: number;
  /** 上传文件: "文件大小不得超过 30 MB". */
  maxFileBytes: number;
  /** 获取消息中的资源文件: "仅支持下载 100 MB 以内的资源文件". */
  maxDownloadBytes: number;
}

type Ctx = RequestContext<undefined>;
type Authed = (method: string, path: string, handler: (ctx: Ctx) => FakeResponse | Promise<FakeResponse>) => void;

const INVALID_PARAM = () => fail(400, 234001, "Invalid request param.");
const EMPTY = () => fail(400, 234010, "File's size can't be 0.");
const TOO_LARGE = () => fail(400, 234006, "The file size exceed the max value.");

/** A multipart request's fields and files, read the way Feishu's gateway reads them. */
async function formOf(ctx: Ctx): Promise<FormData | undefined> {
  const type = String(ctx.headers["content-type"] ?? "");
  if (!type.startsWith("multipart/form-data")) return undefined;
  try {
    return await new Response(new Uint8Array(ctx.rawBody), { headers: { "content-type": type } }).formData();
  } catch {
    return undefined;
  }
}

/**
 * The media routes of the fake Feishu: `POST /open-apis/im/v1/images` (上传图片: multipart
 * `image_type`, `image`), `POST /open-apis/im/v1/files` (上传文件: `file_type`, `file_name`,
 * `duration`, `file`), each answering `{ image_key }` / `{ file_key }` in Feishu's envelope, and
 * `GET /open-apis/im/v1/messages/:message_id/resources/:file_key?type=image|file` (获取消息中的资源文件),
 * which streams a medium of that message with its type, refusing stickers and keys of other messages.
 */
export function registerMediaRoutes(
  authed: Authed,
  state: FakeFeishuState,
  resources: FakeResources,
  limits: FakeMediaLimits,
): void {
  authed("POST", "/open-apis/im/v1/images", async (ctx) => {
    const form = await formOf(ctx);
    const imageType = form?.get("image_type");
    const image = form?.get("image");
    if (!form || (imageType !== "message" && imageType !== "avatar") || !(image instanceof File)) {
      return INVALID_PARAM();
    }
    const bytes = new Uint8Array(await image.arrayBuffer());
    if (bytes.byteLength === 0) return EMPTY();
    if (bytes.byteLength > limits.maxImageBytes) return TOO_LARGE();
    const format = imageFormatOf(bytes);
    if (!format) return fail(400, 234011, "Can't regonnize the image format.");
    const stored = resources.add({
      kind: "image",
      bytes,
      mime: image.type || `image/${format}`,
      ...(image.name ? { filename: image.name } : {}),
      imageType,
      owner: "app",
    });
    return ok({ image_key: stored.key });
  });

  authed("POST", "/open-apis/im/v1/files", async (ctx) => {
    const form = await formOf(ctx);
    const fileType = form?.get("file_type");
    const fileName = form?.get("file_name");
    const duration = form?.get("duration");
    const file = form?.get("file");
    const valid =
      form &&
      typeof fileType === "string" &&
      (FILE_TYPES as readonly string[]).includes(fileType) &&
      typeof fileName === "string" &&
      fileName !== "" &&
      (duration === null || (typeof duration === "string" && /^\d+$/u.test(duration))) &&
      file instanceof File;
    if (!valid) return INVALID_PARAM();
    const bytes = new Uint8Array(await (file as File).arrayBuffer());
    if (bytes.byteLength === 0) return EMPTY();
    if (bytes.byteLength > limits.maxFileBytes) return TOO_LARGE();
    const stored = resources.add({
      kind: "file",
      bytes,
      mime: (file as File).type || "application/octet-stream",
      filename: fileName as string,
      fileType: fileType as FakeFileType,
      ...(typeof duration === "string" ? { durationMs: Number(duration) } : {}),
      owner: "app",
    });
    return ok({ file_key: stored.key });
  });

  authed("GET", "/open-apis/im/v1/messages/:message_id/resources/:file_key", (ctx) => {
    const message = state.messages.get(ctx.params.message_id ?? "");
    const key = ctx.params.file_key ?? "";
    const type = ctx.query.get("type");
    if (type !== "image" && type !== "file") return INVALID_PARAM();
    if (!message || !FakeResources.keysIn(message.msg_type, message.body.content).includes(key)) {
      return fail(400, 234003, "File not in msg.");
    }
    const resource = resources.get(key);
    // "暂不支持获取表情包资源": stickers are not served; an image key wants type=image, the rest type=file.
    if (!resource || resource.kind === "sticker" || resource.kind !== type) return INVALID_PARAM();
    if (resource.bytes.byteLength > limits.maxDownloadBytes) {
      return fail(400, 234037, "Downloaded file size exceeds limit.");
    }
    const name = encodeURIComponent(resource.filename ?? key);
    return mediumResponse(resource.bytes, {
      headers: { "content-type": resource.mime, "content-disposition": `attachment; filename*=UTF-8''${name}` },
      served: (bytes) => {
        resources.bytesServed += bytes;
      },
    });
  });
}
