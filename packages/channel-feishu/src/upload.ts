import {
  anySignal,
  codeForStatus,
  type HttpClient,
  type MultipartPart,
  multipartBody,
  PlatformHttpError,
} from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import type { FeishuApi } from "./api.js";
import { envelopeCode, FeishuCode, feishuRefusal } from "./errors.js";

/** Something to upload: its name, type and size, and its bytes opened as a stream (once per attempt). */
export interface UploadSource {
  readonly filename: string;
  readonly mime: string;
  readonly size: number;
  open(): ReadableStream<Uint8Array>;
}

/** `file_type` of 上传文件: Opus audio, MP4 video, the office formats, or `stream` for anything else. */
export type FeishuFileType = "opus" | "mp4" | "pdf" | "doc" | "xls" | "ppt" | "stream";

/** The slowest upload allowed for, bytes per second: a 30 MB file gets about two minutes on top of `timeoutMs`. */
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 256 * 1024;

/**
 * Uploads to the Open API (`POST /open-apis/im/v1/images`, `POST /open-apis/im/v1/files`) as
 * streamed `multipart/form-data` bodies with the tenant token: the SDK's own upload goes through
 * axios' form-data, which this channel's HTTP instance (the kit's JSON client) does not carry.
 * Feishu answers its envelope; a refusal becomes the error its code means. When the token is no
 * longer valid the upload is made once more with a fresh one; other failures are not retried (an
 * answer lost after the bytes went out leaves at most an unused key on Feishu's side).
 */
export class FeishuUploads {
  constructor(
    private readonly http: HttpClient,
    private readonly api: FeishuApi,
  ) {}

  /** 上传图片 with `image_type=message`; resolves with the `image_key`. */
  async image(source: UploadSource): Promise<string> {
    const data = await this.#post("/open-apis/im/v1/images", `upload the image "${source.filename}"`, source, [
      { name: "image_type", value: "message" },
      filePart("image", source),
    ]);
    return keyOf(data, "image_key");
  }

  /** 上传文件 with its `file_type`, `file_name` and, for audio and video, `duration` (ms); resolves with the `file_key`. */
  async file(source: UploadSource, fileType: FeishuFileType, durationMs?: number): Promise<string> {
    const data = await this.#post("/open-apis/im/v1/files", `upload the file "${source.filename}"`, source, [
      { name: "file_type", value: fileType },
      { name: "file_name", value: source.filename },
      ...(durationMs !== undefined ? [{ name: "duration", value: String(Math.round(durationMs)) }] : []),
      filePart("file", source),
    ]);
    return keyOf(data, "file_key");
  }

  async #post(path: string, operation: string, source: UploadSource, parts: MultipartPart[]): Promise<unknown> {
    try {
      return await this.#once(path, operation, source, parts);
    } catch (error) {
      if (!(error instanceof PlatformHttpError) || error.platformCode !== String(FeishuCode.invalidToken)) {
        throw this.#redacted(error);
      }
      this.api.forgetToken();
      return this.#once(path, operation, source, parts).catch((again: unknown) => {
        throw this.#redacted(again);
      });
    }
  }

  async #once(path: string, operation: string, source: UploadSource, parts: MultipartPart[]): Promise<unknown> {
    const { options } = this.http;
    const token = await this.api.tenantToken();
    const form = multipartBody(parts);
    const timeout = AbortSignal.timeout(
      options.timeoutMs + Math.ceil((source.size / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000),
    );
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.http.url({ path }), {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": form.contentType,
          "content-length": String(form.contentLength),
        },
        body: form.body,
        // Not followed: fetch would keep a copy of the streamed body to resend it (nodejs/undici#4058).
        redirect: "error",
        duplex: "half", // a streamed request body
        signal: options.signal ? anySignal([options.signal, timeout]) : timeout,
      } as RequestInit);
      text = await response.text();
    } catch (error) {
      throw new ChorusError("E_PLATFORM", `Feishu unreachable (${operation})`, { retryable: true, cause: error });
    }
    const json = parseJson(text);
    const answer = {
      call: { method: "POST" as const, path },
      operation,
      status: response.status,
      headers: response.headers,
      text,
      json,
    };
    const refused = feishuRefusal(answer);
    if (refused) throw refused;
    if (response.ok && envelopeCode(json) === 0) return (json as { data?: unknown }).data;
    // A 413 without Feishu's envelope: a proxy in front of it refused the body.
    throw new PlatformHttpError(
      response.status === 413 ? "E_TOO_LARGE" : codeForStatus(response.status),
      `Feishu refused to ${operation} (HTTP ${response.status})`,
      response.status,
      undefined,
      { retryable: response.status >= 500 },
    );
  }

  #redacted(error: unknown): unknown {
    const redactor = this.http.options.redactor;
    return redactor && error instanceof Error ? redactor.error(error) : error;
  }
}

function filePart(name: string, source: UploadSource): MultipartPart {
  return { name, filename: source.filename, contentType: source.mime, size: source.size, open: () => source.open() };
}

function keyOf(data: unknown, name: "image_key" | "file_key"): string {
  const key = (data as Record<string, unknown> | undefined)?.[name];
  if (typeof key !== "string" || key === "") {
    throw new ChorusError("E_PLATFORM", `Feishu accepted the upload but gave no ${name}`);
  }
  return key;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
