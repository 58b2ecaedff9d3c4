import { eventually, SAMPLE_PDF_TEXT, sampleMedium } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  createFakeAnthropic,
  createFakeTranscription,
  type FakeProvider,
  type FakeTranscription,
  lastUserText,
} from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";
import { sample } from "../support/metrics-sample.js";

const png = sampleMedium("image");
const voice = sampleMedium("voice");
const pdf = sampleMedium("file");

/*
 * What the agent sees of what people send (DESIGN §2.6), through the real `chorus start`: the
 * memory channel delivers attachments, the gateway downloads them through the plugin into its
 * media store, the fake model and the fake transcription endpoint show what reached them.
 */
describe("inbound attachments through the real gateway process", () => {
  let world: ModelWorld | undefined;
  let speech: FakeTranscription | undefined;
  let anthropic: FakeProvider | undefined;
  let gateway: GatewayProcess | undefined;
  afterEach(async () => {
    await gateway?.stop();
    await world?.close();
    await speech?.close();
    await anthropic?.close();
    if (gateway) await removeHome(gateway.home);
    gateway = undefined;
    anthropic = undefined;
  });

  /** The world's config with an openai agent (vision on by default), transcription, and the group allowing Ann only. */
  async function start(
    model: ((w: ModelWorld) => Record<string, unknown>) | undefined,
    mediaMaxBytes = 25 * 1024 * 1024,
  ): Promise<ModelWorld> {
    world = await createModelWorld();
    speech = await createFakeTranscription({ apiKey: "sk-speech" });
    const config = world.config({ memory: { groupPolicy: "allowlist", groupAllowFrom: ["ann"] } });
    const transcription = {
      provider: "openai-compatible",
      baseURL: speech.url,
      apiKey: "sk-speech",
      model: "whisper-1",
    };
    config.agents = {
      defaults: { transcription },
      ...(model ? { list: [{ id: "main", name: "Chorus", model: model(world) }] } : {}),
    };
    config.media = { maxBytes: mediaMaxBytes };
    gateway = await startGatewayProcess({ config });
    return world;
  }

  const openai = (w: ModelWorld) => ({
    provider: "openai",
    baseURL: w.model.url,
    apiKey: "sk-test",
    model: "gpt-4o",
    maxRetries: 0,
    timeoutMs: 5000,
  });

  it("a DM photo with its caption reaches an openai model as image input, the bytes as sent", async () => {
    const w = await start(openai);
    w.model.script({ text: "A tiny square." });
    w.platform.userSendsMedium({
      conversationId: "dm-ann",
      senderId: "ann",
      kind: "image",
      bytes: png.bytes,
      mime: png.mime,
      filename: "image.png",
      caption: "what is this?",
    });
    await eventually(() => expect(w.platform.botMessagesIn("dm-ann").map((m) => m.text)).toContain("A tiny square."), {
      timeoutMs: 15_000,
    });
    const [request] = w.model.requests;
    expect(lastUserText(request)).toMatch(/^what is this\?\n\[photo image\.png, \d+ bytes, mediaId med_[\w-]+\]$/);
    expect(w.model.images.map((image) => [image.mediaType, image.bytes])).toEqual([["image/png", png.bytes]]);
    const running = gateway as GatewayProcess;
    const metrics = await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${running.token}` } });
    expect(sample(await metrics.text(), 'chorus_media_bytes_total{channel="memory",direction="in"}')).toBe(
      png.bytes.byteLength,
    );
  });

  it("a DM photo reaches an anthropic model as its base64 image block", async () => {
    anthropic = await createFakeAnthropic({ apiKey: "sk-ant" });
    anthropic.script({ text: "I see it." });
    const fake = anthropic;
    const w = await start(() => ({
      provider: "anthropic",
      baseURL: fake.url,
      apiKey: "sk-ant",
      model: "claude-test",
      maxRetries: 0,
      timeoutMs: 5000,
    }));
    w.platform.userSendsMedium({
      conversationId: "dm-ann",
      senderId: "ann",
      kind: "image",
      bytes: png.bytes,
      mime: png.mime,
    });
    await eventually(() => expect(w.platform.botMessagesIn("dm-ann").map((m) => m.text)).toContain("I see it."), {
      timeoutMs: 15_000,
    });
    expect(anthropic.images.map((image) => [image.mediaType, image.bytes])).toEqual([["image/png", png.bytes]]);
  });

  it("a voice note's bytes reach the transcription endpoint and its words the model; a PDF its text; a failed download is a line", async () => {
    const w = await start(openai, 2048);
    const s = speech as FakeTranscription;
    s.script({ text: "please buy milk" });
    w.model.script({ text: "Noted: milk." }, { text: "Read it." }, { text: "Too big, sorry." });
    w.platform.userSendsMedium({
      conversationId: "dm-ann",
      senderId: "ann",
      kind: "voice",
      bytes: voice.bytes,
      mime: voice.mime,
    });
    await eventually(() => expect(w.platform.botMessagesIn("dm-ann").map((m) => m.text)).toContain("Noted: milk."), {
      timeoutMs: 15_000,
    });
    expect(s.uploads.map((upload) => upload.bytes)).toEqual([voice.bytes]);
    expect(lastUserText(w.model.requests[0])).toMatch(/^\[voice note mediaId med_[\w-]+\] please buy milk$/);

    w.platform.userSendsMedium({
      conversationId: "dm-ann",
      senderId: "ann",
      kind: "file",
      bytes: pdf.bytes,
      mime: pdf.mime,
      filename: "notes.pdf",
    });
    await eventually(() => expect(w.platform.botMessagesIn("dm-ann").map((m) => m.text)).toContain("Read it."), {
      timeoutMs: 15_000,
    });
    expect(lastUserText(w.model.requests[1])).toMatch(
      new RegExp(`^\\[file notes\\.pdf, application/pdf, \\d+ bytes, mediaId med_[\\w-]+\\]\\n${SAMPLE_PDF_TEXT}$`),
    );

    // Over media.maxBytes (2 KB here): not downloaded, and the agent is told so and why.
    w.platform.userSendsMedium({
      conversationId: "dm-ann",
      senderId: "ann",
      kind: "file",
      bytes: new Uint8Array(5000).fill(7),
      mime: "application/octet-stream",
      filename: "big.bin",
    });
    await eventually(() => expect(w.platform.botMessagesIn("dm-ann").map((m) => m.text)).toContain("Too big, sorry."), {
      timeoutMs: 15_000,
    });
    expect(lastUserText(w.model.requests[2])).toMatch(
      /^\[file big\.bin, application\/octet-stream, 5 KB\] \(could not be downloaded: E_TOO_LARGE: .* over 2 KB\.\)$/,
    );
  });

  it("in a group, an allowed sender's spoken 'Chorus, …' wakes the agent; a blocked sender's voice note is never transcribed", async () => {
    const w = await start(openai);
    const s = speech as FakeTranscription;
    s.script({ text: "Chorus, what is for dinner?" });
    w.model.script({ text: "Pasta, Ann." });
    const served = w.platform.bytesServed;
    // Bob is not in groupAllowFrom: his voice note is blocked before anything is downloaded.
    w.platform.userSendsMedium({
      conversationId: "family",
      senderId: "bob",
      kind: "voice",
      bytes: voice.bytes,
      mime: voice.mime,
    });
    w.platform.userSendsMedium({
      conversationId: "family",
      senderId: "ann",
      kind: "voice",
      bytes: voice.bytes,
      mime: voice.mime,
    });
    await eventually(() => expect(w.platform.botMessagesIn("family").map((m) => m.text)).toContain("Pasta, Ann."), {
      timeoutMs: 15_000,
    });
    expect(lastUserText(w.model.requests[0])).toMatch(
      /^Ann: \[voice note mediaId med_[\w-]+\] Chorus, what is for dinner\?\n\[from: Ann \(\+4915100000001\)\]$/,
    );
    // One upload, Ann's; one download, Ann's.
    expect(s.server.requests).toHaveLength(1);
    expect(w.platform.bytesServed - served).toBe(voice.bytes.length);
    expect(w.model.requests).toHaveLength(1);
  });

  it("the demo agent (no model configured) answers a photo saying what it got", async () => {
    const w = await start(undefined);
    w.platform.userSendsMedium({
      conversationId: "dm-ann",
      senderId: "ann",
      kind: "image",
      bytes: png.bytes,
      mime: png.mime,
      filename: "image.png",
    });
    await eventually(
      () =>
        expect(w.platform.botMessagesIn("dm-ann").map((m) => m.text)).toContain(
          `Demo agent (offline): I got your photo (image.png, ${png.bytes.length} bytes). Configure a model in chorus.json to talk to a real one.`,
        ),
      { timeoutMs: 15_000 },
    );
  });
});
