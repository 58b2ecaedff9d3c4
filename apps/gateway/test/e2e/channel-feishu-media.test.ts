import { fileURLToPath } from "node:url";
import { createFakeFeishu, type FakeChat, type FakeFeishu, type FakeUser } from "@chorus/channel-feishu/testing";
import { eventually, sampleMedium } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFakeOpenAI,
  createFakeTranscription,
  type FakeOpenAI,
  type FakeTranscription,
  fakeModelConfig,
  lastUserText,
} from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-feishu", import.meta.url));
const png = sampleMedium("image");
const pdf = sampleMedium("file");
const voice = sampleMedium("voice");
const same = (a: Uint8Array | undefined, b: Uint8Array) => Buffer.from(a ?? []).equals(Buffer.from(b));

/*
 * Media between people on Feishu and the agent, through the real `chorus start` (DESIGN §2.6): what
 * people send reaches the model (a photo with its text as image input, a voice message through the
 * transcription endpoint), downloaded from Feishu's message-resource API; the agent's own image and
 * file reach Feishu byte for byte, uploaded and sent as Feishu's image and file messages.
 */
describe("Feishu media through the real gateway process", () => {
  let feishu: FakeFeishu;
  let model: FakeOpenAI;
  let speech: FakeTranscription;
  let gateway: GatewayProcess;
  let ann: FakeUser;
  let dm: FakeChat;

  beforeAll(async () => {
    feishu = createFakeFeishu({ clientConfig: { ReconnectInterval: 0.1, ReconnectNonce: 0 }, ackTimeoutMs: 500 });
    await feishu.start();
    ann = feishu.addUser("Ann");
    dm = feishu.addChat({ name: "", mode: "p2p", members: [ann] });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    speech = await createFakeTranscription({ apiKey: "sk-speech" });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN] },
        channels: { feishu: { ...feishu.config(), dmPolicy: "open" } },
        agents: {
          defaults: {
            transcription: {
              provider: "openai-compatible",
              baseURL: speech.url,
              apiKey: "sk-speech",
              model: "whisper-1",
            },
          },
          list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test", vision: true }) }],
        },
      },
    });
    await eventually(() => expect(feishu.longConnection.sessions).toHaveLength(1), { timeoutMs: 15_000 });
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await speech?.close();
    await feishu?.close();
    if (gateway) await removeHome(gateway.home);
  });

  const fromBot = () => feishu.messagesIn(dm.chat_id).filter((m) => m.sender.sender_type === "app");
  const botTexts = () => fromBot().map((m) => feishu.textOf(m));

  it("a photo with its text (a rich-text post) reaches the model as image input, the bytes Ann sent", async () => {
    model.script({ text: "A tiny square." });
    await feishu.media.userSends({
      chatId: dm.chat_id,
      from: ann,
      kind: "image",
      bytes: png.bytes,
      mime: png.mime,
      caption: "what is this?",
    });
    await eventually(() => expect(botTexts()).toContain("A tiny square."), { timeoutMs: 15_000 });
    const text = lastUserText(model.requests.at(-1));
    expect(text).toContain("what is this?");
    expect(text).toMatch(/\[photo .*mediaId med_[\w-]+\]/);
    expect(model.images.map((image) => [image.mediaType, same(image.bytes, png.bytes)])).toEqual([["image/png", true]]);
    expect(feishu.server.requestsTo("GET", /\/open-apis\/im\/v1\/messages\/[^/]+\/resources\//)).toHaveLength(1);
  }, 30_000);

  it("a voice message's bytes reach the transcription endpoint and its words the model", async () => {
    speech.script({ text: "please buy milk" });
    model.script({ text: "Noted: milk." });
    await feishu.media.userSends({
      chatId: dm.chat_id,
      from: ann,
      kind: "voice",
      bytes: voice.bytes,
      mime: voice.mime,
      durationMs: 500,
    });
    await eventually(() => expect(botTexts()).toContain("Noted: milk."), { timeoutMs: 15_000 });
    expect(speech.uploads.map((upload) => same(upload.bytes, voice.bytes))).toEqual([true]);
    expect(lastUserText(model.requests.at(-1))).toMatch(/\[voice note .*mediaId med_[\w-]+\] please buy milk/);
  }, 30_000);

  it("the agent's image and file arrive on Feishu byte for byte, after its text", async () => {
    model.script(
      {
        toolCalls: [
          {
            name: "message",
            arguments: {
              action: "send",
              text: "Here you go",
              media: [
                { data: Buffer.from(png.bytes).toString("base64"), filename: "chart.png" },
                { data: Buffer.from(pdf.bytes).toString("base64"), filename: "report.pdf" },
              ],
            },
          },
        ],
      },
      { text: "Sent." },
    );
    await feishu.userSends({ chatId: dm.chat_id, from: ann, text: "send me the chart and the report" });
    await eventually(() => expect(botTexts()).toContain("Sent."), { timeoutMs: 20_000 });
    const media = fromBot().filter((m) => m.msg_type === "image" || m.msg_type === "file");
    const shown = media.map((m) => feishu.media.messageMedia(m.message_id).media[0]);
    expect(shown.map((m) => [m?.kind, m?.filename])).toEqual([
      ["image", "chart.png"],
      ["file", "report.pdf"],
    ]);
    expect([same(shown[0]?.bytes, png.bytes), same(shown[1]?.bytes, pdf.bytes)]).toEqual([true, true]);
    // Feishu's media messages carry no text: it went first, as a message of its own.
    const texts = botTexts();
    expect(texts.indexOf("Here you go")).toBeLessThan(texts.indexOf("Sent."));
  }, 40_000);
});
