import { createFakeFeishu, type FakeChat, type FakeFeishu, type FakeUser } from "@chorus/channel-feishu/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, type FakeTranscription, lastUserText } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import {
  LONG_PATIENCE,
  type ModelAndSpeech,
  mediaAgents,
  PATIENCE,
  pluginDir,
  SAMPLES,
  scriptMediaSend,
  startModelAndSpeech,
} from "../support/media-agent.js";
import { sameBytes } from "../support/media-files.js";

const { png, pdf, voice } = SAMPLES;

/*
 * Media between people on Feishu and the agent, through the real `chorus start` (DESIGN §2.6): what
 * people send reaches the model (a photo with its text as image input, a voice message through the
 * transcription endpoint), downloaded from Feishu's message-resource API; the agent's own image and
 * file reach Feishu byte for byte, uploaded and sent as Feishu's image and file messages.
 */
describe("Feishu media through the real gateway process", () => {
  let feishu: FakeFeishu;
  let modelAndSpeech: ModelAndSpeech | undefined;
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
    modelAndSpeech = await startModelAndSpeech();
    ({ model, speech } = modelAndSpeech);
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [pluginDir("channel-feishu")] },
        channels: { feishu: { ...feishu.config(), dmPolicy: "open" } },
        agents: mediaAgents({ model, speech }),
      },
    });
    await eventually(() => expect(feishu.longConnection.sessions).toHaveLength(1), PATIENCE);
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await modelAndSpeech?.close();
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
    await eventually(() => expect(botTexts()).toContain("A tiny square."), PATIENCE);
    const text = lastUserText(model.requests.at(-1));
    expect(text).toContain("what is this?");
    expect(text).toMatch(/\[photo .*mediaId med_[\w-]+\]/);
    expect(model.images.map((image) => [image.mediaType, sameBytes(image.bytes, png.bytes)])).toEqual([
      ["image/png", true],
    ]);
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
    await eventually(() => expect(botTexts()).toContain("Noted: milk."), PATIENCE);
    expect(speech.uploads.map((upload) => sameBytes(upload.bytes, voice.bytes))).toEqual([true]);
    expect(lastUserText(model.requests.at(-1))).toMatch(/\[voice note .*mediaId med_[\w-]+\] please buy milk/);
  }, 30_000);

  it("the agent's image and file arrive on Feishu byte for byte, after its text", async () => {
    scriptMediaSend(model, {
      text: "Here you go",
      files: { "chart.png": png.bytes, "report.pdf": pdf.bytes },
      closing: "Sent.",
    });
    await feishu.userSends({ chatId: dm.chat_id, from: ann, text: "send me the chart and the report" });
    await eventually(() => expect(botTexts()).toContain("Sent."), LONG_PATIENCE);
    const media = fromBot().filter((m) => m.msg_type === "image" || m.msg_type === "file");
    const shown = media.map((m) => feishu.media.messageMedia(m.message_id).media[0]);
    expect(shown.map((m) => [m?.kind, m?.filename])).toEqual([
      ["image", "chart.png"],
      ["file", "report.pdf"],
    ]);
    expect([sameBytes(shown[0]?.bytes, png.bytes), sameBytes(shown[1]?.bytes, pdf.bytes)]).toEqual([true, true]);
    // Feishu's media messages carry no text: it went first, as a message of its own.
    const texts = botTexts();
    expect(texts.indexOf("Here you go")).toBeLessThan(texts.indexOf("Sent."));
  }, 40_000);

  it("the agent's voice note (Ogg/Opus) arrives as a Feishu voice message, byte for byte", async () => {
    const before = fromBot().length;
    scriptMediaSend(model, { files: { "reply.ogg": { bytes: voice.bytes, as: "voice" } }, closing: "Spoke it." });
    await feishu.userSends({ chatId: dm.chat_id, from: ann, text: "say it out loud" });
    await eventually(() => expect(botTexts()).toContain("Spoke it."), LONG_PATIENCE);
    const notes = fromBot()
      .slice(before)
      .filter((m) => m.msg_type === "audio");
    expect(notes).toHaveLength(1);
    const shown = feishu.media.messageMedia(notes[0]?.message_id ?? "").media[0];
    expect(shown?.kind).toBe("voice");
    expect(sameBytes(shown?.bytes, voice.bytes)).toBe(true);
  }, 40_000);
});
