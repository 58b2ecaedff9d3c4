import { fileURLToPath } from "node:url";
import { createFakeSlack, type FakeSlack } from "@chorus/channel-slack/testing";
import { eventually, SAMPLE_PDF_TEXT, sampleMedium } from "@chorus/testkit";
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

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-slack", import.meta.url));
const ANN = "U0ANN00001";
const DM = "D0ANNDM001";
const png = sampleMedium("image");
const pdf = sampleMedium("file");
const voice = sampleMedium("voice");

/*
 * Media between people on Slack and the agent, through the real `chorus start` (DESIGN §2.6): files
 * people share reach the model (an image as image input, a voice clip through the transcription
 * endpoint, every file of a message), and the agent's own files reach Slack byte for byte.
 */
describe("Slack media through the real gateway process", () => {
  let slack: FakeSlack;
  let model: FakeOpenAI;
  let speech: FakeTranscription;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    slack = createFakeSlack({ mode: "socket" });
    await slack.start();
    slack.addUser({ id: ANN, name: "ann", real_name: "Ann Lee", display_name: "Ann" });
    slack.addConversation({ id: DM, type: "im", members: [slack.bot.id, ANN] });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    speech = await createFakeTranscription({ apiKey: "sk-speech" });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN] },
        channels: { slack: { ...slack.config(), dmPolicy: "open" } },
        agents: {
          defaults: {
            transcription: {
              provider: "openai-compatible",
              baseURL: speech.url,
              apiKey: "sk-speech",
              model: "whisper-1",
            },
          },
          list: [
            {
              id: "main",
              name: "Chorus",
              model: fakeModelConfig(model, { apiKey: "sk-test", vision: true }),
            },
          ],
        },
      },
    });
    await eventually(() => expect(slack.socket.connections).toBe(1), { timeoutMs: 15_000 });
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await speech?.close();
    await slack?.close();
    if (gateway) await removeHome(gateway.home);
  });

  const botTexts = () =>
    slack
      .messagesIn(DM)
      .filter((m) => m.user === slack.bot.id)
      .map((m) => m.text);

  it("a photo with a caption reaches the model as image input, the bytes Ann shared", async () => {
    model.script({ text: "A tiny square." });
    await slack.userSendsFiles({
      channel: DM,
      user: ANN,
      text: "what is this?",
      files: [{ name: "image.png", bytes: png.bytes, mimetype: png.mime }],
    });
    await eventually(() => expect(botTexts()).toContain("A tiny square."), { timeoutMs: 15_000 });
    const request = model.requests.at(-1);
    expect(lastUserText(request)).toMatch(/what is this\?/);
    expect(lastUserText(request)).toMatch(/\[photo image\.png, \d+ bytes, mediaId med_[\w-]+\]/);
    expect(
      model.images.map((image) => [image.mediaType, Buffer.from(image.bytes).equals(Buffer.from(png.bytes))]),
    ).toEqual([["image/png", true]]);
  }, 30_000);

  it("a voice clip's bytes reach the transcription endpoint and its words the model", async () => {
    speech.script({ text: "please buy milk" });
    model.script({ text: "Noted: milk." });
    await slack.userSendsFiles({
      channel: DM,
      user: ANN,
      files: [
        {
          name: "audio_message.ogg",
          bytes: voice.bytes,
          mimetype: voice.mime,
          subtype: "slack_audio",
          durationMs: 1000,
        },
      ],
    });
    await eventually(() => expect(botTexts()).toContain("Noted: milk."), { timeoutMs: 15_000 });
    expect(speech.uploads.map((upload) => Buffer.from(upload.bytes).equals(Buffer.from(voice.bytes)))).toEqual([true]);
    expect(lastUserText(model.requests.at(-1))).toMatch(/\[voice note .*mediaId med_[\w-]+\] please buy milk/);
  }, 30_000);

  it("every file of one message reaches the agent, not only the first", async () => {
    model.script({ text: "Got both." });
    await slack.userSendsFiles({
      channel: DM,
      user: ANN,
      text: "two things",
      files: [
        { name: "chart.png", bytes: png.bytes, mimetype: png.mime },
        { name: "notes.pdf", bytes: pdf.bytes },
      ],
    });
    await eventually(() => expect(botTexts()).toContain("Got both."), { timeoutMs: 15_000 });
    const text = lastUserText(model.requests.at(-1));
    expect(text).toMatch(/\[photo chart\.png, .*mediaId med_/);
    expect(text).toMatch(/\[file notes\.pdf, application\/pdf, .*mediaId med_/);
    expect(text).toContain(SAMPLE_PDF_TEXT);
  }, 30_000);

  it("the agent's image and file arrive in Slack byte for byte, in one message with the caption", async () => {
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
    await slack.userSends({ channel: DM, user: ANN, text: "send me the chart and the report" });
    await eventually(() => expect(botTexts()).toContain("Sent."), { timeoutMs: 20_000 });
    const withFiles = slack.messagesIn(DM).filter((m) => m.user === slack.bot.id && (m.files?.length ?? 0) > 0);
    expect(withFiles).toHaveLength(1);
    const shown = slack.media.messageMedia(withFiles[0]);
    expect(shown.text).toBe("Here you go");
    expect(shown.media.map((m) => [m.kind, m.filename])).toEqual([
      ["image", "chart.png"],
      ["file", "report.pdf"],
    ]);
    expect(Buffer.from(shown.media[0]?.bytes ?? []).equals(Buffer.from(png.bytes))).toBe(true);
    expect(Buffer.from(shown.media[1]?.bytes ?? []).equals(Buffer.from(pdf.bytes))).toBe(true);
  }, 40_000);
});
