import { createFakeServer, type FakeResponse, type FakeServer, type RequestContext, waitFor } from "@chorus/testkit";
import { openAIError } from "./fake-openai-wire.js";

/**
 * A fake of OpenAI's `POST /v1/audio/transcriptions` on 127.0.0.1, stateful and checking what the
 * real one checks: a Bearer key, a `multipart/form-data` body with a `file` and a `model`, the file's
 * format told by its name (OpenAI's refusal: `Invalid file format. Supported formats: ['flac',
 * 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']`, as quoted in
 * B4PT0R/streamlit-mic-recorder issue 10 and EpicenterHQ/epicenter issue 474), and the 25 MB limit
 * (`413 Maximum content size limit (26214400) exceeded (N bytes read)`, type `server_error`, as
 * quoted in chidiwilliams/buzz issue 381). `response_format=json` (the default) answers `{ text }`.
 * Groq and local whisper servers speak the same.
 */
export interface FakeTranscription {
  /** `http://127.0.0.1:PORT/v1`: what `baseURL` takes. */
  readonly url: string;
  readonly server: FakeServer;
  /** Every upload the endpoint accepted, oldest first. */
  readonly uploads: TranscriptionUpload[];
  /** Queues answers: a transcript, or an HTTP error with its body. */
  script(...replies: TranscriptionReply[]): void;
  waitForUploads(count: number, timeoutMs?: number): Promise<TranscriptionUpload[]>;
  close(): Promise<void>;
}

/** One accepted upload: the file's bytes, name and type, and the form's other fields. */
export interface TranscriptionUpload {
  bytes: Uint8Array;
  filename: string;
  contentType: string;
  model: string;
  responseFormat: string;
}

/** A scripted answer: the words, or a refusal. */
export type TranscriptionReply = { text: string } | { status: number; body?: unknown };

const PATH = "/v1/audio/transcriptions";
const FORMATS = ["flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm"];
const MAX_BYTES = 26_214_400;

/** Starts the fake; `apiKey` is required of every request; `defaultText` answers when the script is empty. */
export async function createFakeTranscription(
  options: { apiKey?: string; defaultText?: string } = {},
): Promise<FakeTranscription> {
  const server = createFakeServer({ maxBodyBytes: 64 * 1024 * 1024 });
  const queue: TranscriptionReply[] = [];
  const uploads: TranscriptionUpload[] = [];
  server.route("POST", PATH, async (ctx) => {
    if (options.apiKey !== undefined && ctx.headers.authorization !== `Bearer ${options.apiKey}`) {
      const message =
        "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.";
      return { status: 401, json: openAIError(message, "invalid_request_error", "invalid_api_key") };
    }
    if (ctx.rawBody.length > MAX_BYTES) {
      const message = `Maximum content size limit (${MAX_BYTES}) exceeded (${ctx.rawBody.length} bytes read)`;
      return { status: 413, json: openAIError(message, "server_error") };
    }
    const form = await formOf(ctx);
    if ("refusal" in form) return form.refusal;
    const reply = queue.shift() ?? { text: options.defaultText ?? "fake transcript" };
    if ("status" in reply)
      return { status: reply.status, json: reply.body ?? openAIError("HTTP error", "server_error") };
    uploads.push(form);
    return form.responseFormat === "text"
      ? { headers: { "content-type": "text/plain; charset=utf-8" }, body: reply.text }
      : { json: { text: reply.text } };
  });
  await server.start();
  return {
    url: `${server.url}/v1`,
    server,
    uploads,
    script: (...replies) => {
      queue.push(...replies);
    },
    waitForUploads: (count, timeoutMs = 5000) =>
      waitFor(() => (uploads.length >= count ? uploads : undefined), {
        timeoutMs,
        message: `${count} upload(s) at the fake transcription endpoint`,
      }),
    close: () => server.close(),
  };
}

/** The upload of a request, or OpenAI's refusal of its form. */
async function formOf(ctx: RequestContext): Promise<TranscriptionUpload | { refusal: FakeResponse }> {
  const type = String(ctx.headers["content-type"] ?? "");
  const bad = (message: string, param: string | null = null) => ({
    refusal: { status: 400, json: { error: { message, type: "invalid_request_error", param, code: null } } },
  });
  if (!type.startsWith("multipart/form-data"))
    return bad(`Invalid Content-Type header (${type || "none"}), expected multipart/form-data.`);
  let form: FormData;
  try {
    form = await new Response(ctx.rawBody, { headers: { "content-type": type } }).formData();
  } catch {
    return bad("Could not parse multipart form");
  }
  const file = form.get("file");
  const model = form.get("model");
  if (!(file instanceof Blob)) return bad("you must provide a file", "file");
  if (typeof model !== "string" || model === "") return bad("you must provide a model parameter", "model");
  const filename = (file as File).name ?? "";
  const extension = /\.([^.]+)$/u.exec(filename)?.[1]?.toLowerCase() ?? "";
  if (!FORMATS.includes(extension))
    return bad(`Invalid file format. Supported formats: [${FORMATS.map((f) => `'${f}'`).join(", ")}]`);
  const responseFormat = form.get("response_format");
  return {
    bytes: new Uint8Array(await file.arrayBuffer()),
    filename,
    contentType: file.type,
    model,
    responseFormat: typeof responseFormat === "string" ? responseFormat : "json",
  };
}
