import { createFakeSlack, type FakeSlack } from "@chorus/channel-slack/testing";
import { eventually, SAMPLE_PDF_TEXT } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, type FakeTranscription, lastUserText } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { toolResults } from "../support/groups-b-reactions.js";
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

const ANN = "U0ANN00001";
const DM = "D0ANNDM001";
const { png, pdf, voice } = SAMPLES;

/*
 * Media between people on Slack and the agent, through the real `chorus start` (DESIGN §2.6): files
 * people share reach the model (an image as image input, a voice clip through the transcription
 * endpoint, every file of a message), and the agent's own files reach Slack byte for byte.
 */
describe("Slack media through the real gateway process", () => {
  let slack: FakeSlack;
  let modelAndSpeech: ModelAndSpeech | undefined;
  let model: FakeOpenAI;
  let speech: FakeTranscription;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    slack = createFakeSlack({ mode: "socket" });
    await slack.start();
    slack.addUser({ id: ANN, name: "ann", real_name: "Ann Lee", display_name: "Ann" });
    slack.addConversation({ id: DM, type: "im", members: [slack.bot.id, ANN] });
    modelAndSpeech = await startModelAndSpeech();
    ({ model, speech } = modelAndSpeech);
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [pluginDir("channel-slack")] },
        channels: { slack: { ...slack.config(), dmPolicy: "open" } },
        agents: mediaAgents({ model, speech }),
      },
    });
    await eventually(() => expect(slack.socket.connections).toBe(1), PATIENCE);
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await modelAndSpeech?.close();
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
    await eventually(() => expect(botTexts()).toContain("A tiny square."), PATIENCE);
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
    await eventually(() => expect(botTexts()).toContain("Noted: milk."), PATIENCE);
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
    await eventually(() => expect(botTexts()).toContain("Got both."), PATIENCE);
    const text = lastUserText(model.requests.at(-1));
    expect(text).toMatch(/\[photo chart\.png, .*mediaId med_/);
    expect(text).toMatch(/\[file notes\.pdf, application\/pdf, .*mediaId med_/);
    expect(text).toContain(SAMPLE_PDF_TEXT);
  }, 30_000);

  it("the agent's image and file arrive in Slack byte for byte, in one message with the caption", async () => {
    scriptMediaSend(model, {
      text: "Here you go",
      files: { "chart.png": png.bytes, "report.pdf": pdf.bytes },
      closing: "Sent.",
    });
    await slack.userSends({ channel: DM, user: ANN, text: "send me the chart and the report" });
    await eventually(() => expect(botTexts()).toContain("Sent."), LONG_PATIENCE);
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

  it("the agent's voice note arrives as an audio file (Slack has no voice notes a bot sends), byte for byte, and the result says so", async () => {
    const before = model.requests.length;
    scriptMediaSend(model, { files: { "reply.ogg": { bytes: voice.bytes, as: "voice" } }, closing: "Spoke it." });
    await slack.userSends({ channel: DM, user: ANN, text: "say it out loud" });
    await eventually(() => expect(botTexts()).toContain("Spoke it."), LONG_PATIENCE);
    expect(toolResults(model.requests[before + 1])).toMatchObject([{ ok: true, sentAs: ["audio"] }]);
    const withAudio = slack
      .messagesIn(DM)
      .filter((m) => m.user === slack.bot.id && m.files?.some((file) => file.name === "reply.ogg"));
    expect(withAudio).toHaveLength(1);
    const shown = slack.media.messageMedia(withAudio[0]);
    expect(shown.media.map((m) => [m.kind, m.filename])).toEqual([["audio", "reply.ogg"]]);
    expect(Buffer.from(shown.media[0]?.bytes ?? []).equals(Buffer.from(voice.bytes))).toBe(true);
  }, 40_000);
});
