import { type FakeResponse, json, type RequestContext } from "@chorus/testkit";
import type { FakeAttachment } from "./fake-state.js";
import { imageSize } from "./image-size.js";

/** The body of a create-message request, JSON or `payload_json`, as far as the fake reads it. */
export interface CreateMessageBody {
  content?: string;
  message_reference?: { message_id: string };
  attachments?: { id?: unknown; filename?: unknown; description?: unknown; title?: unknown }[];
}

/** What the fake enforces of an upload; Discord's defaults in `DISCORD_UPLOAD_LIMITS`. */
export interface UploadLimits {
  /** Bytes of one file (413, 40005 over it). */
  readonly fileBytes: number;
  /** Bytes of the whole request (413, 40005 over it). */
  readonly requestBytes: number;
  /** Files of one message (400, 30015 over it). */
  readonly files: number;
}

const MiB = 1024 * 1024;

/**
 * Discord's: 10 MiB per file, 25 MiB per request (developers/reference.mdx "Uploading Files";
 * resources/message.mdx, Create Message, Limitations), 10 attachments (opcodes-and-status-codes
 * 30015).
 */
export const DISCORD_UPLOAD_LIMITS: UploadLimits = { fileBytes: 10 * MiB, requestBytes: 25 * MiB, files: 10 };

/** "413: Request entity too large" with its JSON error code. */
export const TOO_LARGE: FakeResponse = json(413, { message: "Request entity too large", code: 40005 });

const invalidForm = (errors: unknown): FakeResponse => json(400, { message: "Invalid Form Body", code: 50035, errors });

/**
 * Reads a create-message request as Discord does (developers/reference.mdx "Uploading Files"): a
 * JSON body, or `multipart/form-data` whose `payload_json` holds the JSON (else its text fields
 * are the body) and whose files are `files[n]` parts, each with a filename; `attachments[i].id`
 * names the `n` of its file and may give it another `filename`, a `description`, a `title`. Over
 * the limits it is Discord's 413 (40005) or 30015; an attachment entry without its file is 50035
 * ATTACHMENT_NOT_FOUND.
 */
export async function readMessageForm(
  ctx: RequestContext<undefined>,
  limits: UploadLimits,
): Promise<{ body: CreateMessageBody; files: Omit<FakeAttachment, "id">[] } | FakeResponse> {
  const type = ctx.headers["content-type"] ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) return { body: ctx.json<CreateMessageBody>(), files: [] };
  if (ctx.rawBody.byteLength > limits.requestBytes) return TOO_LARGE;
  let form: FormData;
  try {
    form = await new Response(ctx.rawBody, { headers: { "content-type": type } }).formData();
  } catch {
    return invalidForm({ _errors: [{ code: "MULTIPART_INVALID", message: "Invalid multipart body" }] });
  }
  const fields: Record<string, unknown> = {};
  const parts = new Map<number, File>();
  for (const [name, value] of form) {
    const index = /^files\[(\d+)\]$/.exec(name)?.[1];
    if (typeof value === "string") fields[name] = value;
    else if (index !== undefined && value.name !== "") parts.set(Number(index), value);
    else return invalidForm({ [name]: { _errors: [{ code: "BASE_TYPE_INVALID", message: "Not a files[n] upload" }] } });
  }
  let body: CreateMessageBody;
  try {
    body = typeof fields.payload_json === "string" ? JSON.parse(fields.payload_json) : (fields as CreateMessageBody);
  } catch {
    return invalidForm({ payload_json: { _errors: [{ code: "JSON_INVALID", message: "Invalid JSON" }] } });
  }
  if ([...parts.values()].some((file) => file.size > limits.fileBytes)) return TOO_LARGE;
  if (parts.size > limits.files) {
    return json(400, { message: "Maximum number of attachments in a message reached (10)", code: 30015 });
  }
  const meta = Array.isArray(body.attachments) ? body.attachments : [];
  for (const [i, entry] of meta.entries()) {
    if (!parts.has(Number(entry.id))) {
      const missing = { code: "ATTACHMENT_NOT_FOUND", message: "Attachment data not found" };
      return invalidForm({ attachments: { [i]: { _errors: [missing] } } });
    }
  }
  const files: Omit<FakeAttachment, "id">[] = [];
  for (const [n, file] of [...parts.entries()].sort(([a], [b]) => a - b)) {
    const entry = meta.find((m) => Number(m.id) === n);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const name = typeof entry?.filename === "string" && entry.filename !== "" ? entry.filename : file.name;
    const type = file.type || undefined;
    const size = type?.startsWith("image/") ? imageSize(bytes) : undefined;
    files.push({
      filename: name,
      size: bytes.byteLength,
      bytes,
      ...(type ? { content_type: type } : {}),
      ...(size ?? {}),
      ...(typeof entry?.description === "string" ? { description: entry.description } : {}),
      ...(typeof entry?.title === "string" ? { title: entry.title } : {}),
    });
  }
  return { body, files };
}
