import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { FakeResponse, FakeServer, RequestContext } from "@chorus/testkit";
import { API_PREFIX } from "../client.js";
import type { FakeBlueBubblesState, FakeMessage } from "./fake-state.js";
import { answer, refuse, serializeMessage, unhandled } from "./fake-wire.js";

type Ctx = RequestContext<undefined>;

/** What the media routes need from the fake around them. */
export interface FakeMediaRoutesOptions {
  server: FakeServer;
  state: FakeBlueBubblesState;
  /** Wraps a handler in `AuthMiddleware`. */
  authorized(
    handler: (ctx: Ctx) => FakeResponse | Promise<FakeResponse>,
  ): (ctx: Ctx) => FakeResponse | Promise<FakeResponse>;
  /** The Private API helper's state, as `checkPrivateApiStatus` reports it (undefined: usable). */
  privateApiProblem(): string | undefined;
  /** formidable's `maxFileSize` (koa-body in `api/http/index.ts`: 1 GiB). */
  maxFileBytes: number;
  /** The server's own `new-message` for a row its account sent. */
  echo(message: FakeMessage): void;
}

/** A file of a `multipart/form-data` body, as formidable hands it on. */
interface FormFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** Bytes written to a download at a time. */
const CHUNK = 64 * 1024;

/**
 * BlueBubbles' attachment routes (bluebubbles-server `api/http/api/v1/httpRoutes.ts`,
 * `routers/attachmentRouter.ts`, `routers/messageRouter.ts`, `validators/{attachment,message}Validator.ts`):
 * downloads (converted unless `original`, streamed without a length as koa streams a file), one
 * file as one message, uploads for multipart messages, and the multipart messages themselves.
 */
export function installMediaRoutes(options: FakeMediaRoutesOptions): void {
  const { server, state, authorized } = options;
  const route = (method: string, path: string, handler: (ctx: Ctx) => Promise<FakeResponse> | FakeResponse) =>
    server.route(method, `${API_PREFIX}${path}`, handler);
  const rest = (message: FakeMessage) =>
    serializeMessage(state, message, { forWebhook: false, includeChats: true, participants: false });

  route(
    "GET",
    "/attachment/:guid/download",
    authorized((ctx) => {
      const attachment = state.attachments.get(ctx.params.guid ?? "");
      if (!attachment) {
        // `force` (default true) with the Private API on tries to re-download a null attachment.
        const force = truthy(ctx.query.get("force") ?? "true");
        if (!force || options.privateApiProblem() !== undefined) return refuse(404, "Attachment does not exist!");
        return unhandled("Cannot read properties of null (reading 'guid')");
      }
      const served = !truthy(ctx.query.get("original")) && attachment.converted ? attachment.converted : attachment;
      return {
        status: 200,
        headers: { "content-type": served.mimeType ?? "application/octet-stream" },
        stream: (res) => void writeChunked(res, served.bytes, (n) => (state.bytesServed += n)),
      };
    }),
  );

  route(
    "POST",
    "/message/attachment",
    authorized(async (ctx) => {
      const form = await formOf(ctx, options.maxFileBytes);
      if ("refused" in form) return form.refused;
      const { fields, file } = form;
      const { chatGuid, tempGuid, name, subject, effectId, selectedMessageGuid } = fields;
      if (!chatGuid) return refuse(400, "The chatGuid field is required.");
      if (!name) return refuse(400, "The name field is required.");
      if (fields.method && !["apple-script", "private-api"].includes(fields.method))
        return refuse(400, "The selected method is invalid.");
      const method = effectId || subject || selectedMessageGuid ? "private-api" : (fields.method ?? "apple-script");
      if (method === "apple-script" && !tempGuid)
        return refuse(400, "A 'tempGuid' is required when sending via AppleScript");
      if (!file || file.bytes.byteLength === 0) return refuse(400, "Attachment not provided or was empty!");
      const problem = method === "private-api" ? options.privateApiProblem() : undefined;
      if (problem) return refuse(500, problem, "Attachment Send Error");
      if (!state.chats.has(chatGuid)) return refuse(500, "Chat does not exist!", "Attachment Send Error");
      if (selectedMessageGuid && state.messages.get(selectedMessageGuid)?.chatGuid !== chatGuid)
        return refuse(500, "Selected message does not exist!", "Attachment Send Error");
      const attachment = state.addAttachment({ ...fileRow(name, file), isOutgoing: true, isSticker: false });
      const message = state.addMessage({
        chatGuid,
        text: "\uFFFC",
        isFromMe: true,
        method,
        attachments: [attachment.guid],
        // AppleScript sends a file as a file: only the helper marks an audio message.
        isAudioMessage: method === "private-api" && fields.isAudioMessage === "true",
        ...(tempGuid ? { tempGuid } : {}),
        ...(selectedMessageGuid ? { threadOriginatorGuid: selectedMessageGuid } : {}),
      });
      options.echo(message);
      return answer("Attachment sent!", rest(message));
    }),
  );

  route(
    "POST",
    "/attachment/upload",
    authorized(async (ctx) => {
      // koa-body has read the body before the route's PrivateApiMiddleware runs.
      const form = await formOf(ctx, options.maxFileBytes);
      if ("refused" in form) return form.refused;
      const problem = options.privateApiProblem();
      if (problem) {
        const said = "Please make sure you have completed the setup for the Private API, and your helper is connected!";
        return refuse(500, problem, said);
      }
      if (!form.file || form.file.bytes.byteLength === 0) return refuse(400, "Attachment not provided or was empty!");
      // `FileSystem.copyAttachment`: `<attachments dir>/<uuid>/<name>`; the answer is `<uuid>/<name>`.
      const path = `${randomUUID()}/${form.file.name}`;
      state.uploads.set(path, form.file);
      return answer("Success", { path });
    }),
  );

  route(
    "POST",
    "/message/multipart",
    authorized((ctx) => {
      const body = ctx.json<Record<string, unknown>>() ?? {};
      const chatGuid = typeof body.chatGuid === "string" ? body.chatGuid : undefined;
      if (!chatGuid) return refuse(400, "The chatGuid field is required.");
      if (body.parts === undefined) return refuse(400, "The parts field is required.");
      if (!Array.isArray(body.parts)) return refuse(400, "The parts must be an array.");
      const parts = body.parts as Record<string, unknown>[];
      for (const part of parts) {
        const problem = partProblem(part, state);
        if (problem) return refuse(400, problem);
      }
      const problem = options.privateApiProblem();
      if (problem) return refuse(500, problem, "Message Send Error");
      if (!state.chats.has(chatGuid)) return refuse(500, "Chat does not exist!", "Message Send Error");
      const selected = typeof body.selectedMessageGuid === "string" ? body.selectedMessageGuid : undefined;
      const attachments = parts.flatMap((part) => {
        const upload = typeof part.attachment === "string" ? state.uploads.get(part.attachment) : undefined;
        if (!upload) return [];
        const row = fileRow(String(part.name), upload);
        return [state.addAttachment({ ...row, isOutgoing: true, isSticker: false }).guid];
      });
      const text = parts.map((part) => (part.attachment ? "\uFFFC" : String(part.text ?? ""))).join("");
      const tempGuid = typeof body.tempGuid === "string" ? body.tempGuid : undefined;
      const message = state.addMessage({
        chatGuid,
        text,
        isFromMe: true,
        method: "private-api",
        attachments,
        ...(tempGuid ? { tempGuid } : {}),
        ...(selected ? { threadOriginatorGuid: selected } : {}),
      });
      options.echo(message);
      return answer("Message sent!", { ...rest(message), ...(tempGuid ? { tempGuid } : {}) });
    }),
  );
}

/** `validateMultipart`'s rules for one part, in its order; undefined when the part passes. */
function partProblem(part: Record<string, unknown>, state: FakeBlueBubblesState): string | undefined {
  if (typeof part !== "object" || part === null) return "Each part must be a dictionary";
  if (part.partIndex === undefined || part.partIndex === null) return "Each part must have a partIndex";
  if (typeof part.partIndex !== "number") return "Each partIndex must be a number";
  if (!part.text && !part.attachment) return "Each part must have either a text or attachment";
  if (part.attachment && !part.name) return "Each attachment must have a name";
  if (part.attachment && !state.uploads.has(String(part.attachment)))
    return `Attachment '${String(part.attachment)}' does not exist`;
  return undefined;
}

/**
 * The fields and the `attachment` file of a `multipart/form-data` body, or the server's refusal:
 * formidable's `maxFileSize` error (an unhandled error: HTTP 500) for a file over the limit.
 */
async function formOf(
  ctx: Ctx,
  maxFileBytes: number,
): Promise<{ fields: Record<string, string>; file: FormFile | undefined } | { refused: FakeResponse }> {
  const type = String(ctx.headers["content-type"] ?? "");
  const fields: Record<string, string> = {};
  let file: FormFile | undefined;
  if (!type.startsWith("multipart/form-data")) return { fields, file };
  const form = await new Response(ctx.rawBody, { headers: { "content-type": type } }).formData();
  for (const [name, value] of form) {
    if (typeof value === "string") fields[name] = value;
    else if (name === "attachment") {
      if (value.size > maxFileBytes)
        return { refused: unhandled(`maxFileSize exceeded, received ${value.size} bytes of file data`) };
      file = { name: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) };
    }
  }
  return { fields, file };
}

/** The chat.db row Messages makes of a file it sends: its type and UTI from its name's extension. */
function fileRow(name: string, file: { bytes: Uint8Array; type: string }) {
  const extension = /\.([A-Za-z0-9]+)$/u.exec(name)?.[1]?.toLowerCase() ?? "";
  const [uti, mimeType] = TYPES[extension] ?? ["public.data", file.type || null];
  return { uti, mimeType, transferName: name, bytes: file.bytes };
}

/** UTI and MIME type by extension, as macOS' Launch Services names them. */
const TYPES: Record<string, [string, string]> = {
  png: ["public.png", "image/png"],
  jpg: ["public.jpeg", "image/jpeg"],
  jpeg: ["public.jpeg", "image/jpeg"],
  gif: ["com.compuserve.gif", "image/gif"],
  webp: ["org.webmproject.webp", "image/webp"],
  heic: ["public.heic", "image/heic"],
  mp4: ["public.mpeg-4", "video/mp4"],
  mov: ["com.apple.quicktime-movie", "video/quicktime"],
  mp3: ["public.mp3", "audio/mpeg"],
  m4a: ["com.apple.m4a-audio", "audio/x-m4a"],
  ogg: ["org.xiph.ogg", "audio/ogg"],
  caf: ["com.apple.coreaudio-format", "audio/x-caf"],
  pdf: ["com.adobe.pdf", "application/pdf"],
  txt: ["public.plain-text", "text/plain"],
};

/** validatorjs' and `isTruthyBool`'s true: `1`, `true`, `True`. */
function truthy(value: string | null): boolean {
  return value === "1" || value === "true" || value === "True";
}

/** A file as koa streams it (`ctx.body = fs.createReadStream(…)`): chunked, no Content-Length. */
async function writeChunked(res: ServerResponse, bytes: Uint8Array, served: (n: number) => void): Promise<void> {
  for (let offset = 0; offset < bytes.byteLength; offset += CHUNK) {
    if (res.destroyed) return;
    const chunk = bytes.subarray(offset, offset + CHUNK);
    served(chunk.byteLength);
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.on("drain", done);
        res.on("close", done);
      });
    }
  }
  res.end();
}
