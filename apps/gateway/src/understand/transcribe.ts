import {
  anySignal,
  codeForStatus,
  multipartBody,
  PlatformHttpError,
  platformMessage,
  Redactor,
} from "@chorus/channel-kit";
import { ChorusError, type ErrorCode } from "@chorus/core";
import { API_KEY_ENV, type TranscriptionConfig } from "../config/index.js";

/** Audio to transcribe, read from the store as it is sent. */
export interface AudioInput {
  open(): ReadableStream<Uint8Array>;
  size: number;
  /** What the store found the bytes to be (`audio/ogg`, `audio/mpeg`, …). */
  mime: string;
  filename: string;
}

/** Options of `Transcriber` beyond the config. */
export interface TranscriberOptions {
  /** Where `provider: "openai"` finds its key when `apiKey` is not set. */
  env?: NodeJS.ProcessEnv;
  fetch?: typeof globalThis.fetch;
}

/** OpenAI's documented upload limit (26 214 400 bytes); larger files are refused with a 413. */
export const OPENAI_MAX_AUDIO_BYTES = 25 * 1024 * 1024;
/** The most of an answer read (a long recording's transcript is far less). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * The file extension the endpoint reads the format from, per type: OpenAI takes flac, m4a, mp3, mp4,
 * mpeg, mpga, oga, ogg, wav and webm, and tells the format by the name (a Telegram voice note is
 * `file_12.oga`, a WhatsApp one has no name).
 */
const EXTENSIONS: Record<string, string> = {
  "audio/ogg": "ogg",
  "audio/opus": "ogg",
  "application/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/mp4": "m4a",
  "audio/m4a": "m4a",
  "audio/x-m4a": "m4a",
  "audio/wav": "wav",
  "audio/wave": "wav",
  "audio/x-wav": "wav",
  "audio/vnd.wave": "wav",
  "audio/webm": "webm",
  "audio/flac": "flac",
  "audio/x-flac": "flac",
  "video/mp4": "mp4",
  "video/webm": "webm",
};

/**
 * Speech to text through an OpenAI-compatible `POST <baseURL>/audio/transcriptions` (DESIGN §2.6):
 * a multipart upload (`file`, `model`, `response_format=json`) streamed from the store, answered
 * `{ text }`. Each call has the config's `timeoutMs`; a refusal is a typed error with the provider's
 * reason, its API key taken out.
 */
export class Transcriber {
  readonly #apiKey: string | undefined;
  readonly #redactor: Redactor;
  readonly #fetch: typeof globalThis.fetch;
  readonly #url: string;

  constructor(
    readonly config: TranscriptionConfig,
    options: TranscriberOptions = {},
  ) {
    const env = options.env ?? process.env;
    this.#apiKey = config.apiKey || (config.provider === "openai" ? env[API_KEY_ENV.openai] : undefined) || undefined;
    this.#redactor = new Redactor([this.#apiKey]);
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#url = `${config.baseURL.replace(/\/+$/, "")}/audio/transcriptions`;
  }

  /** The words of `audio`; rejects with a `ChorusError` saying why there are none. */
  async transcribe(audio: AudioInput, signal?: AbortSignal): Promise<string> {
    const { config } = this;
    if (config.provider === "openai" && !this.#apiKey)
      throw new ChorusError("E_AUTH", `no API key: set agents.defaults.transcription.apiKey or ${API_KEY_ENV.openai}`);
    if (config.provider === "openai" && audio.size > OPENAI_MAX_AUDIO_BYTES)
      throw new ChorusError(
        "E_TOO_LARGE",
        `the audio is over OpenAI's ${OPENAI_MAX_AUDIO_BYTES / 1024 / 1024} MB limit`,
      );
    const form = multipartBody([
      {
        name: "file",
        filename: uploadName(audio),
        contentType: baseType(audio.mime),
        size: audio.size,
        open: audio.open,
      },
      { name: "model", value: config.model },
      { name: "response_format", value: "json" },
    ]);
    const timeout = AbortSignal.timeout(config.timeoutMs);
    let answer: Response;
    try {
      answer = await this.#fetch(this.#url, {
        method: "POST",
        headers: {
          "content-type": form.contentType,
          "content-length": String(form.contentLength),
          accept: "application/json",
          ...(this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : {}),
        },
        body: form.body,
        duplex: "half",
        // Without it undici's fetch tees a stream body to follow redirects and keeps the unread
        // branch: the whole recording in memory (nodejs/undici#4058). A stream cannot be resent anyway.
        redirect: "error",
        signal: signal ? anySignal([signal, timeout]) : timeout,
      } as RequestInit);
      const body = await readAnswer(answer);
      if (!answer.ok) throw this.#refusal(answer.status, body);
      const text = parseText(body);
      if (text === undefined) throw new ChorusError("E_PLATFORM", "the transcription endpoint answered without a text");
      return text;
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      if (timeout.aborted)
        throw new ChorusError("E_PLATFORM", `the transcription endpoint did not answer within ${config.timeoutMs} ms`, {
          retryable: true,
        });
      if (error instanceof ChorusError) throw this.#redactor.error(error);
      const cause = (error as { cause?: { code?: unknown } }).cause?.code;
      throw new ChorusError(
        "E_PLATFORM",
        `could not reach the transcription endpoint${typeof cause === "string" ? ` (${cause})` : ""}`,
        { retryable: true },
      );
    }
  }

  #refusal(status: number, body: string): ChorusError {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    const reason = platformMessage(parsed) ?? (body.trim().slice(0, 200) || "no reason given");
    const platformCode = (parsed as { error?: { code?: unknown } } | undefined)?.error?.code;
    return new PlatformHttpError(
      codeOf(status),
      this.#redactor.text(`the transcription endpoint refused the audio (HTTP ${status}): ${reason}`),
      status,
      typeof platformCode === "string" ? platformCode : undefined,
      { retryable: status === 429 || status >= 500 },
    );
  }
}

/** A name with the extension the endpoint reads the format from (see `EXTENSIONS`). */
export function uploadName(audio: Pick<AudioInput, "filename" | "mime">): string {
  const extension = EXTENSIONS[baseType(audio.mime)];
  if (extension === undefined) return audio.filename;
  const base = audio.filename.replace(/\.[^.]*$/u, "") || "audio";
  return `${base}.${extension}`;
}

/** `audio/ogg; codecs=opus` → `audio/ogg`. */
function baseType(mime: string): string {
  return (mime.split(";")[0] ?? "").trim().toLowerCase() || "application/octet-stream";
}

async function readAnswer(answer: Response): Promise<string> {
  if (!answer.body) return "";
  const reader = answer.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new ChorusError("E_PLATFORM", "the transcription endpoint's answer is too large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The error code of a refusal: a wrong model or path (404) is the endpoint's problem, not a missing message. */
function codeOf(status: number): ErrorCode {
  if (status === 413) return "E_TOO_LARGE";
  if (status === 429) return "E_RATE_LIMITED";
  const code = codeForStatus(status);
  return code === "E_MESSAGE_NOT_FOUND" ? "E_PLATFORM" : code;
}

function parseText(body: string): string | undefined {
  try {
    const text = (JSON.parse(body) as { text?: unknown }).text;
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  }
}
