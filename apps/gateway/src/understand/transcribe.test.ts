import { streamOf } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeTranscription, type FakeTranscription } from "../testing/index.js";
import { type AudioInput, Transcriber, uploadName } from "./transcribe.js";

const voice = sampleMedium("voice");
const KEY = "sk-speech-0123456789";

let fake: FakeTranscription;
beforeAll(async () => {
  fake = await createFakeTranscription({ apiKey: KEY });
});
afterAll(() => fake.close());

const audio = (filename = "file_12.oga", mime = "audio/ogg; codecs=opus"): AudioInput => ({
  open: () => streamOf(voice.bytes),
  size: voice.bytes.length,
  mime,
  filename,
});

function transcriber(options: { apiKey?: string; timeoutMs?: number; provider?: "openai" | "openai-compatible" } = {}) {
  const provider = options.provider ?? "openai-compatible";
  return new Transcriber(
    {
      provider,
      baseURL: fake.url,
      model: "whisper-1",
      timeoutMs: options.timeoutMs ?? 5000,
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    } as never,
    { env: {} },
  );
}

async function failure(promise: Promise<unknown>): Promise<ChorusError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChorusError);
  return error as ChorusError;
}

describe("transcription through an OpenAI-compatible /audio/transcriptions endpoint", () => {
  it("streams the bytes as a multipart upload named for its format and answers the words", async () => {
    fake.script({ text: "hello from a voice note" });
    const before = fake.uploads.length;
    expect(await transcriber({ apiKey: KEY }).transcribe(audio())).toBe("hello from a voice note");
    const upload = fake.uploads[before];
    expect(upload?.bytes).toEqual(voice.bytes);
    // A Telegram voice note is `file_12.oga`; the upload is named for what the bytes are.
    expect(upload).toMatchObject({ filename: "file_12.ogg", contentType: "audio/ogg", model: "whisper-1" });
    expect(upload?.responseFormat).toBe("json");
    const request = fake.server.requests.at(-1);
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("a refusal is a typed error with the provider's reason and never the key", async () => {
    fake.script({
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${KEY}.`,
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      },
    });
    const error = await failure(transcriber({ apiKey: KEY }).transcribe(audio()));
    expect(error.code).toBe("E_AUTH");
    expect(error.message).toContain("HTTP 401");
    expect(error.message).toContain("Incorrect API key provided");
    expect(JSON.stringify({ ...error, message: error.message, hint: error.hint })).not.toContain(KEY);

    const wrong = await failure(transcriber({ apiKey: "sk-wrong-key-000" }).transcribe(audio()));
    expect(wrong.code).toBe("E_AUTH");
    expect(wrong.message).not.toContain("sk-wrong-key-000");
  });

  it("a format the endpoint does not take, or a size over OpenAI's limit, is refused with why", async () => {
    const format = await failure(transcriber({ apiKey: KEY }).transcribe(audio("clip.aac", "audio/aac")));
    expect(format.code).toBe("E_INVALID_INPUT");
    expect(format.message).toContain("Invalid file format");
    const large = await failure(
      transcriber({ apiKey: KEY, provider: "openai" }).transcribe({ ...audio(), size: 30 * 1024 * 1024 }),
    );
    expect(large.code).toBe("E_TOO_LARGE");
  });

  it("openai without a key names where one goes; an endpoint that does not answer times out", async () => {
    const missing = await failure(transcriber({ provider: "openai" }).transcribe(audio()));
    expect(missing).toMatchObject({ code: "E_AUTH" });
    expect(missing.message).toContain("OPENAI_API_KEY");

    fake.server.inject({ kind: "hang", match: { path: "/v1/audio/transcriptions" } });
    const slow = await failure(transcriber({ apiKey: KEY, timeoutMs: 300 }).transcribe(audio()));
    expect(slow).toMatchObject({ code: "E_PLATFORM", retryable: true });
    expect(slow.message).toContain("did not answer within 300 ms");
  });

  it("an endpoint that cannot be reached is a retryable platform error", async () => {
    const gone = new Transcriber(
      { provider: "openai-compatible", baseURL: "http://127.0.0.1:9/v1", model: "m", timeoutMs: 2000 },
      { env: {} },
    );
    const error = await failure(gone.transcribe(audio()));
    expect(error).toMatchObject({ code: "E_PLATFORM", retryable: true });
    expect(error.message).toContain("could not reach the transcription endpoint");
  });

  it("names the upload with the extension its type reads as", () => {
    expect(uploadName({ filename: "voice", mime: "audio/ogg" })).toBe("voice.ogg");
    expect(uploadName({ filename: "PTT-20240101.opus", mime: "audio/ogg; codecs=opus" })).toBe("PTT-20240101.ogg");
    expect(uploadName({ filename: "song.mp3", mime: "audio/mpeg" })).toBe("song.mp3");
    expect(uploadName({ filename: "memo.m4a", mime: "audio/x-unknown" })).toBe("memo.m4a");
  });
});
