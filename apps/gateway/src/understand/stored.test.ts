import type { Attachment, DownloadOptions } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/index.js";
import { createFakeTranscription, type FakeTranscription, openTestState, type TestState } from "../testing/index.js";
import { MemoryMediaStore, testSource } from "./media-doubles.test.util.js";
import { IntakeRecords } from "./record.js";
import { Transcriber } from "./transcribe.js";
import { MediaUnderstanding } from "./understanding.js";

const png = sampleMedium("image");
const voice = sampleMedium("voice");
const FILES = { photo: { bytes: png.bytes, mime: "image/png" }, voice: { bytes: voice.bytes, mime: "audio/ogg" } };
const local = {
  provider: "openai-compatible",
  baseURL: "http://127.0.0.1:1/v1",
  model: "m",
  timeoutMs: 1000,
  maxRetries: 0,
  stream: false,
} as ModelConfig;

let fake: FakeTranscription;
let test: TestState;
let store: MemoryMediaStore;
let understanding: MediaUnderstanding;
beforeAll(async () => {
  fake = await createFakeTranscription({ apiKey: "sk-speech" });
});
afterAll(() => fake.close());
beforeEach(async () => {
  test = await openTestState();
  store = new MemoryMediaStore();
  understanding = new MediaUnderstanding({
    store,
    state: test.state,
    limits: { maxBytes: 1024 * 1024, maxExtractChars: 20_000 },
    logger: pino({ level: "silent" }),
    transcriber: new Transcriber({
      provider: "openai-compatible",
      baseURL: fake.url,
      apiKey: "sk-speech",
      model: "whisper-1",
      timeoutMs: 5000,
    }),
  });
});
afterEach(() => test.close());

/** A channel whose downloads wait until `open()` is called: two readers of one message meet mid-download. */
function gatedSource() {
  const source = testSource(FILES);
  const instance = source.supervisor.instance as NonNullable<typeof source.supervisor.instance>;
  const download = instance.download.bind(instance);
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  instance.download = async (attachment: Attachment, options: DownloadOptions) => {
    await gate;
    return download(attachment, options);
  };
  return { source, open };
}

describe("a message's attachments stored for outside agents (the event stream, recent_messages)", () => {
  it("stored() downloads each attachment with bytes once and keeps it with the message, transcribing nothing", async () => {
    const source = testSource(FILES);
    const attachments: Attachment[] = [
      { kind: "image", filename: "cat.png", source: { id: "photo" } },
      { kind: "voice", durationMs: 2000, source: { id: "voice" } },
      { kind: "location", location: { latitude: 1, longitude: 2 } },
    ];
    const requests = fake.server.requests.length;
    const items = await understanding.of({ source, row: 3, event: { attachments } }).stored();
    expect(items).toEqual([
      { mediaId: expect.stringMatching(/^med_/), mime: "image/png", size: png.bytes.length, filename: "cat.png" },
      { mediaId: expect.stringMatching(/^med_/), mime: "audio/ogg", size: voice.bytes.length, filename: "audio.bin" },
      undefined,
    ]);
    expect(fake.server.requests.length).toBe(requests);
    expect(await new IntakeRecords(test.state).read(3)).toEqual(items.slice(0, 2));
    // Read again (a replayed event): nothing downloaded again.
    expect(await understanding.of({ source, row: 3, event: { attachments } }).stored()).toEqual(items);
    expect(source.downloads.map((d) => d.id)).toEqual(["photo", "voice"]);
  });

  it("the stream and the message's turn reading it at once download once and name the same mediaId", async () => {
    fake.script({ text: "buy milk" });
    const { source, open } = gatedSource();
    const attachments: Attachment[] = [
      { kind: "image", filename: "cat.png", source: { id: "photo" } },
      { kind: "voice", durationMs: 2000, source: { id: "voice" } },
    ];
    const stream = understanding.of({ source, row: 5, event: { attachments } }).stored();
    const turn = understanding.of({ source, row: 5, event: { attachments } }).understood(local);
    open();
    const [items, seen] = await Promise.all([stream, turn]);
    expect(source.downloads.map((d) => d.id)).toEqual(["photo", "voice"]);
    expect(store.media.size).toBe(2);
    expect(seen.lines).toEqual([
      `[photo cat.png, ${png.bytes.length} bytes, mediaId ${items[0]?.mediaId}]`,
      `[voice note 0:02, mediaId ${items[1]?.mediaId}] buy milk`,
    ]);
    // The transcript the turn made is kept beside what the stream stored.
    expect((await new IntakeRecords(test.state).read(5))[1]).toMatchObject({
      mediaId: items[1]?.mediaId,
      transcript: "buy milk",
    });
  });

  it("a voice note the stream stored is transcribed by the turn without downloading it again", async () => {
    fake.script({ text: "Chorus, hello" });
    const source = testSource(FILES);
    const attachments: Attachment[] = [{ kind: "voice", durationMs: 1000, source: { id: "voice" } }];
    const [stored] = await understanding.of({ source, row: 8, event: { attachments } }).stored();
    expect(await understanding.of({ source, row: 8, event: { attachments } }).spoken()).toBe("Chorus, hello");
    expect(source.downloads).toHaveLength(1);
    expect((await new IntakeRecords(test.state).read(8))[0]).toEqual({ ...stored, transcript: "Chorus, hello" });
  });

  it("a download that failed is the item's failure, the account's secrets taken out", async () => {
    const source = testSource(FILES);
    const items = await understanding
      .of({ source, row: 4, event: { attachments: [{ kind: "file", filename: "gone.pdf", source: { id: "nope" } }] } })
      .stored();
    expect(items).toEqual([{ failed: "E_MESSAGE_NOT_FOUND: file nope is gone (token [redacted])" }]);
  });
});
