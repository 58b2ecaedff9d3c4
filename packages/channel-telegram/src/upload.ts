import { type MultipartPart, multipartBody } from "@chorus/channel-kit";
import type { Api } from "grammy";
import type { TelegramConfig } from "./config.js";

/** The slowest upload a call allows for, bytes per second: a 50 MB file gets about 200 s on top of `timeoutMs`. */
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 256 * 1024;

/**
 * The payload of a Bot API call that uploads files: its fields and files, sent as one streamed
 * `multipart/form-data` body (the kit's `multipartBody`, with its exact Content-Length) instead of
 * grammY's, which buffers nothing either but sends no length, no file types, and file names
 * unquoted. It still goes through the API client's transformer (timeouts, retries, errors,
 * redaction); each attempt opens the files again.
 */
export class MultipartCall {
  constructor(readonly parts: readonly MultipartPart[]) {}

  /** Bytes of the files it uploads. */
  get uploadBytes(): number {
    return this.parts.reduce((sum, part) => sum + ("size" in part ? part.size : 0), 0);
  }

  /** Extra time an attempt gets for uploading the files. */
  get uploadAllowanceMs(): number {
    return Math.ceil(this.uploadBytes / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000;
  }
}

/**
 * Posts `call` to `<apiRoot>/bot<token>/<method>` and resolves with Telegram's answer, as grammY's
 * own request does. A 413 that is not JSON (the web server in front of the Bot API refusing the
 * body) is answered in the Bot API's format, so it is read like any other refusal.
 */
export async function postMultipart(
  config: Pick<TelegramConfig, "apiRoot" | "botToken">,
  method: string,
  call: MultipartCall,
  signal: AbortSignal,
): Promise<unknown> {
  const { body, contentType, contentLength } = multipartBody(call.parts);
  const response = await fetch(`${config.apiRoot}/bot${config.botToken}/${method}`, {
    method: "POST",
    headers: { "content-type": contentType, "content-length": String(contentLength) },
    body,
    duplex: "half",
    // Without it undici's fetch tees a stream body to follow redirects and keeps the unread
    // branch: the whole upload in memory (nodejs/undici#4058). A stream cannot be resent anyway.
    redirect: "error",
    signal,
  } as RequestInit);
  const isJson = /json/i.test(response.headers.get("content-type") ?? "");
  if (response.status === 413 && !isJson) {
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, error_code: 413, description: "Request Entity Too Large" };
  }
  return response.json();
}

/** Calls `method` with a multipart payload through the API client (its transformer sends it with `postMultipart`). */
export function callMultipart<T>(api: Api, method: string, call: MultipartCall): Promise<T> {
  const raw = api.raw as unknown as Record<string, (payload: unknown) => Promise<T>>;
  const send = raw[method];
  if (!send) throw new Error(`no Bot API method ${method}`);
  return send(call);
}
