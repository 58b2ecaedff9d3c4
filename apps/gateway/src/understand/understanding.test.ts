import type { Attachment } from "@chorus/core";
import { SAMPLE_PDF_TEXT, sampleMedium } from "@chorus/testkit";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/index.js";
import { createFakeTranscription, type FakeTranscription, openTestState, type TestState } from "../testing/index.js";
import { MemoryMediaStore, testSource } from "./media-doubles.test.util.js";
import { Transcriber } from "./transcribe.js";
import { MediaUnderstanding } from "./understanding.js";

const png = sampleMedium("image");
const voice = sampleMedium("voice");
const mp3 = sampleMedium("audio");
const pdf = sampleMedium("file");
const logger = pino({ level: "silent" });
const openai: ModelConfig = {
  provider: "openai",
  baseURL: "http://127.0.0.1:1/v1",
  model: "gpt-4o",
  timeoutMs: 1000,
  maxRetries: 0,
  stream: false,
};
const local: ModelConfig = { ...openai, provider: "openai-compatible", name: "local" } as ModelConfig;

let fake: FakeTranscription;
let test: TestState;
let store: MemoryMediaStore;
beforeAll(async () => {
  fake = await createFakeTranscription({ apiKey: "sk-speech" });
});
afterAll(() => fake.close());
beforeEach(async () => {
  test = await openTestState();
  store = new MemoryMediaStore();
});
afterEach(() => test.close());

function understanding(transcribing = true) {
  return new MediaUnderstanding({
    store,
    state: test.state,
    limits: { maxBytes: 1024 * 1024, maxExtractChars: 20_000 },
    logger,
    ...(transcribing
      ? {
          transcriber: new Transcriber({
            provider: "openai-compatible",
            baseURL: fake.url,
            apiKey: "sk-speech",
            model: "whisper-1",
            timeoutMs: 5000,
          }),
        }
      : {}),
  });
}

const FILES = {
  photo: { bytes: png.bytes, mime: "image/png" },
  voice: { bytes: voice.bytes, mime: "audio/ogg" },
  song: { bytes: mp3.bytes, mime: "audio/mpeg" },
  doc: { bytes: pdf.bytes, mime: "application/pdf" },
};

function read(attachments: Attachment[], row = 1, source = testSource(FILES), transcribing = true) {
  return { media: understanding(transcribing).of({ source, row, event: { attachments } }), source };
}

describe("a message's attachments, as the agent gets them", () => {
  it("a photo is downloaded into the store, named by its mediaId, and shown as image input to a model that sees", async () => {
    const { media, source } = read([
      { kind: "image", filename: "image.png", size: png.bytes.length, source: { id: "photo" } },
    ]);
    const seen = await media.understood(openai);
    const [stored] = [...store.media.values()];
    expect(stored?.bytes).toEqual(png.bytes);
    expect(seen.lines).toEqual([`[photo image.png, ${png.bytes.length} bytes, mediaId ${stored?.medium.mediaId}]`]);
    expect(seen.images).toEqual([{ mediaId: stored?.medium.mediaId, mediaType: "image/png", data: png.bytes }]);
    // Capped at the smaller of the channel's maxReceiveBytes and media.maxBytes.
    expect(source.downloads).toEqual([{ id: "photo", maxBytes: 1024 * 1024 }]);
  });

  it("without vision (openai-compatible unless set) the photo is a line only", async () => {
    const { media } = read([{ kind: "image", filename: "image.png", source: { id: "photo" } }]);
    const seen = await media.understood(local);
    expect(seen.images).toEqual([]);
    expect(seen.lines[0]).toMatch(/^\[photo image\.png, \d+ bytes, mediaId med_[\w-]+\]$/);
    const seeing = await read([{ kind: "image", source: { id: "photo" } }], 2).media.understood({
      ...local,
      vision: true,
    } as ModelConfig);
    expect(seeing.images).toHaveLength(1);
  });

  it("a voice note's bytes reach the transcription endpoint and its words the agent", async () => {
    fake.script({ text: "Chorus, what is the weather?" });
    const before = fake.uploads.length;
    const { media } = read([{ kind: "voice", durationMs: 12_000, source: { id: "voice" } }]);
    const seen = await media.understood(openai);
    const upload = fake.uploads[before];
    expect(upload?.bytes).toEqual(voice.bytes);
    expect(upload).toMatchObject({
      filename: expect.stringMatching(/\.ogg$/),
      contentType: "audio/ogg",
      model: "whisper-1",
      responseFormat: "json",
    });
    expect(seen.lines).toEqual([
      expect.stringMatching(/^\[voice note 0:12, mediaId med_[\w-]+\] Chorus, what is the weather\?$/),
    ]);
    expect(seen.images).toEqual([]);
  });

  it("without agents.defaults.transcription a voice note says it was not transcribed", async () => {
    const before = fake.server.requests.length;
    const { media } = read(
      [{ kind: "voice", durationMs: 12_000, source: { id: "voice" } }],
      1,
      testSource(FILES),
      false,
    );
    expect((await media.understood(openai)).lines).toEqual([
      expect.stringMatching(
        /^\[voice note 0:12, mediaId med_[\w-]+\] \(not transcribed: no agents\.defaults\.transcription\)$/,
      ),
    ]);
    expect(await media.spoken()).toBe("");
    expect(fake.server.requests.length).toBe(before);
  });

  it("a failed download is a line saying so and why, the account's secrets taken out", async () => {
    const source = testSource(FILES, { maxReceiveBytes: 50 });
    const { media } = read(
      [
        { kind: "image", filename: "big.png", source: { id: "photo" } },
        { kind: "file", filename: "gone.pdf", source: { id: "missing" } },
      ],
      1,
      source,
    );
    const seen = await media.understood(openai);
    expect(seen.lines[0]).toBe(
      `[photo big.png] (could not be downloaded: E_TOO_LARGE: the image is ${png.bytes.length} bytes, over 50 bytes.)`,
    );
    expect(seen.lines[1]).toBe(
      "[file gone.pdf] (could not be downloaded: E_MESSAGE_NOT_FOUND: file missing is gone (token (redacted)))",
    );
    expect(seen.images).toEqual([]);
    expect(store.media.size).toBe(0);
  });

  it("a PDF is its text; another file a line with its name, type and size", async () => {
    const files = { ...FILES, zip: { bytes: new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0, 0]), mime: "application/zip" } };
    const { media } = read(
      [
        { kind: "file", filename: "report.pdf", mime: "application/pdf", source: { id: "doc" } },
        { kind: "file", filename: "data.zip", mime: "application/zip", source: { id: "zip" } },
      ],
      1,
      testSource(files),
    );
    const [doc, zip] = (await media.understood(openai)).lines;
    expect(doc).toMatch(
      new RegExp(`^\\[file report\\.pdf, application/pdf, \\d+ bytes, mediaId med_[\\w-]+\\]\\n${SAMPLE_PDF_TEXT}$`),
    );
    expect(zip).toMatch(/^\[file data\.zip, application\/zip, 8 bytes, mediaId med_[\w-]+\]$/);
  });

  it("locations and contacts are lines, and an album is one message with every part in order", async () => {
    const { media } = read([
      { kind: "image", source: { id: "photo" } },
      { kind: "image", source: { id: "photo" } },
      { kind: "location", location: { latitude: 52.52, longitude: 13.405, name: "Alexanderplatz", address: "Berlin" } },
      { kind: "contact", contact: { name: "Ada Lovelace", phones: ["+44 20 7946 0000"] } },
    ]);
    const seen = await media.understood(openai);
    expect(seen.images.map((image) => image.data)).toEqual([png.bytes, png.bytes]);
    expect(seen.lines.slice(2)).toEqual([
      "[location] Alexanderplatz, Berlin\n52.52, 13.405\nhttps://www.openstreetmap.org/?mlat=52.52&mlon=13.405#map=16/52.52/13.405",
      "[contact Ada Lovelace, +44 20 7946 0000]",
    ]);
  });

  it("reading a message again (a retried turn) downloads and transcribes nothing twice", async () => {
    fake.script({ text: "once" });
    const uploads = fake.server.requests.length;
    const source = testSource(FILES);
    const attachments: Attachment[] = [
      { kind: "voice", durationMs: 3000, source: { id: "voice" } },
      { kind: "image", source: { id: "photo" } },
    ];
    const first = await read(attachments, 7, source).media.understood(openai);
    const again = await read(attachments, 7, source).media.understood(openai);
    expect(again.lines).toEqual(first.lines);
    expect(source.downloads).toHaveLength(2);
    expect(fake.server.requests.length).toBe(uploads + 1);
    expect(store.media.size).toBe(2);
  });

  it("a download that failed for now (the platform's 503) is a line now and tried again when the message is read again", async () => {
    const source = testSource(FILES);
    source.failNext.add("photo");
    const attachments: Attachment[] = [{ kind: "image", filename: "image.png", source: { id: "photo" } }];
    const first = await read(attachments, 9, source).media.understood(openai);
    expect(first.lines).toEqual(["[photo image.png] (could not be downloaded: E_PLATFORM: the platform answered 503)"]);
    const again = await read(attachments, 9, source).media.understood(openai);
    expect(again.images).toHaveLength(1);
    expect(source.downloads.map((d) => d.id)).toEqual(["photo", "photo"]);
  });

  it("spoken: a group hears voice notes, and short audio where the channel does not mark voice notes", async () => {
    fake.script({ text: "Chorus, hello" }, { text: "short audio words" });
    const voiceNote = read([
      { kind: "voice", source: { id: "voice" } },
      { kind: "image", source: { id: "photo" } },
    ]);
    expect(await voiceNote.media.spoken()).toBe("Chorus, hello");
    // Only the voice note was downloaded: the photo waits until the message triggers a turn.
    expect(voiceNote.source.downloads.map((d) => d.id)).toEqual(["voice"]);

    const unmarked = testSource(FILES, { receive: ["image", "audio", "file"] });
    const short = read([{ kind: "audio", durationMs: 60_000, source: { id: "song" } }], 2, unmarked);
    expect(await short.media.spoken()).toBe("short audio words");
    const long = read([{ kind: "audio", durationMs: 6 * 60_000, source: { id: "song" } }], 3, unmarked);
    expect(await long.media.spoken()).toBe("");
    const marked = read([{ kind: "audio", durationMs: 60_000, source: { id: "song" } }], 4);
    expect(await marked.media.spoken()).toBe("");
  });

  it("a buffered message's context has its lines, no image input, its file text cut shorter", async () => {
    const { media } = read([{ kind: "image", filename: "cat.png", source: { id: "photo" } }]);
    expect(await media.context()).toEqual([
      expect.stringMatching(/^\[photo cat\.png, \d+ bytes, mediaId med_[\w-]+\]$/),
    ]);
  });
});
