import type { FakeServer, RequestContext } from "@chorus/testkit";
import { type FakeMediaStore, md5 } from "./media-store.js";
import type { FakeMedium, FakeMessage, FakeSession } from "./state.js";
import { mimeOf, type Uploads } from "./upload-routes.js";
import { answer, INVALID, type Params, type RouteOptions, refuse, zaloRoute } from "./zalo-route.js";

/** What the media routes share with the rest of the fake. */
export interface MediaRoutesOptions extends RouteOptions {
  media: FakeMediaStore;
  uploads: Uploads;
  /** Zalo echoes the account's own messages to its listeners. */
  echoMessage(message: FakeMessage): void;
}

type Kind = "message" | "group";

/** A `JSON.parse` that gives undefined for what is not JSON. */
function parsed(text: unknown): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(String(text));
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The first chunk of a multipart body under `field` (`fileContent`, `chunkContent`). */
async function fileIn(ctx: RequestContext, field: string): Promise<Uint8Array | undefined> {
  const type = ctx.headers["content-type"];
  if (!type?.startsWith("multipart/form-data")) return undefined;
  const file = (await new Response(ctx.rawBody, { headers: { "content-type": type } }).formData()).get(field);
  return typeof file === "object" && file !== null ? new Uint8Array(await file.arrayBuffer()) : undefined;
}

/**
 * The calls that turn uploads into messages, as zca-js makes them on the file host: a photo
 * (`photo_original/send`: `photoId`, `desc` its caption, `width`, `height`), a file
 * (`asyncfile/msg`: `fileId`, `fileName`, `totalSize`, `checksum` the MD5 of the bytes, `fileUrl`),
 * a voice message or a video by the URL of an uploaded file (`forward`, `msgType` 3 or 5, `msgInfo`
 * with `voiceUrl` or `videoUrl` and the `fileSize` zca-js read with `HEAD`), a GIF (`upthumb`, then
 * `gif` with the bytes), and a sticker's detail (`sticker_detail`, `sid`) for the image it shows.
 * Each answers `{ msgId }` and stores the message with its medium.
 */
export function addMediaRoutes(server: FakeServer, options: MediaRoutesOptions): void {
  const { state, media, uploads, problem } = options;
  const route = (method: "GET" | "POST", path: string, handle: Parameters<typeof zaloRoute>[4]) =>
    zaloRoute(server, options, method, path, handle);

  /** Stores the bot's message carrying `medium` in the thread the params name; a refusal when there is none. */
  const post = (kind: Kind, params: Params, session: FakeSession, medium: FakeMedium, numeric = true) => {
    const threadId = String(kind === "group" ? params.grid : (params.toid ?? params.toId));
    if (kind === "group" ? !state.groups.has(threadId) : !state.users.has(threadId)) {
      return refuse(INVALID, `no ${kind === "group" ? "group" : "user"} ${threadId}`);
    }
    const message = state.addMessage({
      cliMsgId: String(params.clientId),
      threadId,
      kind: kind === "group" ? "group" : "user",
      uidFrom: state.bot.id,
      text: medium.caption ?? "",
      ts: Date.now(),
      medium,
    });
    options.echoMessage(message);
    return answer(session, { msgId: numeric ? Number(message.msgId) : message.msgId });
  };

  for (const kind of ["message", "group"] as const) {
    route("POST", `/api/${kind}/photo_original/send`, (params, session) => {
      const photo = uploads.photos.get(String(params.photoId));
      if (!photo) return refuse(INVALID, `no photo ${String(params.photoId)}`);
      const caption = typeof params.desc === "string" && params.desc !== "" ? params.desc : undefined;
      return post(kind, params, session, {
        kind: "photo",
        ...photo,
        ...(caption !== undefined && { caption }),
        ...(typeof params.width === "number" && { width: params.width }),
        ...(typeof params.height === "number" && { height: params.height }),
      });
    });

    route("POST", `/api/${kind}/asyncfile/msg`, (params, session) => {
      const file = uploads.files.get(String(params.fileId));
      if (!file) return refuse(INVALID, `no file ${String(params.fileId)}`);
      if (params.checksum !== md5(file.bytes) || Number(params.totalSize) !== file.bytes.byteLength) {
        problem(`asyncfile/msg: checksum or totalSize of ${file.filename} does not match its bytes`);
        return refuse(INVALID, "Tham số không hợp lệ");
      }
      if (params.fileUrl !== file.url) problem(`asyncfile/msg: fileUrl is not where ${file.filename} was stored`);
      return post(kind, params, session, { kind: "file", ...file, filename: String(params.fileName) });
    });

    route("POST", `/api/${kind}/forward`, (params, session) => {
      const info = parsed(params.msgInfo);
      const voice = Number(params.msgType) === 3;
      const url = voice ? info?.voiceUrl : info?.videoUrl;
      const file = typeof url === "string" ? media.at(url) : undefined;
      if (!info || !file || (Number(params.msgType) !== 3 && Number(params.msgType) !== 5)) {
        return refuse(INVALID, "Tham số không hợp lệ");
      }
      if (Number(info.fileSize) !== file.bytes.byteLength) problem(`forward: fileSize of ${file.filename} is wrong`);
      if (voice) return post(kind, params, session, { kind: "voice", ...file }, false);
      const title = typeof info.title === "string" && info.title !== "" ? { caption: info.title } : {};
      return post(kind, params, session, { kind: "video", ...file, ...title });
    });

    route("POST", `/api/${kind}/gif`, async (params, session, ctx) => {
      const bytes = await fileIn(ctx, "chunkContent");
      if (!bytes || bytes.byteLength !== Number(params.totalSize) || params.checksum !== md5(bytes)) {
        problem(`gif: the bytes do not match totalSize and checksum`);
        return refuse(INVALID, "Tham số không hợp lệ");
      }
      const fileName = String(params.fileName);
      const stored = media.store("photo", bytes, fileName, mimeOf(fileName));
      const caption = typeof params.msg === "string" && params.msg !== "" ? { caption: params.msg } : {};
      return post(kind, params, session, { kind: "gif", ...stored, ...caption });
    });
  }

  route("POST", "/api/message/upthumb", async (_params, session, ctx) => {
    const bytes = await fileIn(ctx, "fileContent");
    if (!bytes) return refuse(INVALID, "Tham số không hợp lệ");
    return answer(session, { url: media.store("photo", bytes, "thumb.png", "image/png").url });
  });

  route("GET", "/api/message/sticker/sticker_detail", (params, session) => {
    const sticker = media.stickers.get(Number(params.sid));
    if (!sticker) return refuse(INVALID, `no sticker ${String(params.sid)}`);
    return answer(session, {
      id: sticker.id,
      cateId: sticker.catId,
      type: sticker.type,
      text: "",
      uri: "",
      fkey: 0,
      status: 1,
      stickerUrl: sticker.url,
      stickerSpriteUrl: sticker.url,
      stickerWebpUrl: sticker.url,
      totalFrames: 1,
      duration: 0,
      effectId: 0,
      checksum: "",
      ext: 0,
      source: 0,
      fss: null,
      fssInfo: null,
      version: 1,
      extInfo: null,
    });
  });
}
