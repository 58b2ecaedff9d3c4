import {
  CONVERTED_JPEG,
  CONVERTED_M4A,
  createFakeBlueBubbles,
  type FakeBlueBubbles,
} from "@chorus/channel-imessage/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, type FakeTranscription, lastUserText } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import {
  type ModelAndSpeech,
  mediaAgents,
  PATIENCE,
  pluginDir,
  SAMPLES,
  scriptMediaSend,
  startModelAndSpeech,
  waitForBotMessage,
} from "../support/media-agent.js";

const ANN = "+15550002222";
const DIRECT = `iMessage;-;${ANN}`;
const { png, pdf, voice: caf } = SAMPLES;

/*
 * iMessage media through the real `chorus start` (DESIGN §2.6): what Ann sends reaches the agent
 * through the plugin's download (the fake BlueBubbles server serving what the Mac's converters
 * make of a HEIC photo and an audio message), and what the agent sends with the message tool
 * reaches the server through its Private API routes, byte for byte.
 */
describe("iMessage media through the real gateway process", () => {
  let fake: FakeBlueBubbles;
  let modelAndSpeech: ModelAndSpeech | undefined;
  let model: FakeOpenAI;
  let speech: FakeTranscription;
  let gateway: GatewayProcess;

  /** Waits for the bot's message whose text is `text` in Ann's chat. */
  const botSaid = (text: string) =>
    waitForBotMessage({
      sent: () => fake.messagesIn(DIRECT).filter((m) => m.isFromMe),
      pick: (m) => fake.shown(m.guid)?.text === text,
      what: `bot message ${JSON.stringify(text)}`,
      show: (m) => m.text,
    });

  beforeAll(async () => {
    modelAndSpeech = await startModelAndSpeech();
    ({ model, speech } = modelAndSpeech);
    fake = createFakeBlueBubbles();
    await fake.start();
    fake.addChat({ guid: DIRECT, participants: [ANN] });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [pluginDir("channel-imessage")] },
        channels: { imessage: { ...fake.config(), allowFrom: [ANN] } },
        agents: mediaAgents({ model, speech }),
      },
    });
    await eventually(() => expect(fake.state.webhooks).toHaveLength(1), PATIENCE);
  }, 40_000);

  afterAll(async () => {
    await gateway?.stop();
    await modelAndSpeech?.close();
    await fake?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("a HEIC photo with a caption reaches the model as image input: the JPEG the server converted it to", async () => {
    model.script({ text: "A red square." });
    const heic = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63, 0, 0, 0, 0]);
    const photo = {
      bytes: heic,
      transferName: "IMG_0001.heic",
      mimeType: "image/heic",
      converted: { bytes: CONVERTED_JPEG, mimeType: "image/jpeg", transferName: "IMG_0001.heic.jpeg" },
    };
    expect(
      await fake.deliver(fake.userSendsMedia({ chatGuid: DIRECT, from: ANN, text: "what is this?", files: [photo] })),
    ).toEqual([200]);
    await botSaid("A red square.");
    expect(lastUserText(model.requests.at(-1))).toMatch(
      /^what is this\?\n\[photo IMG_0001\.heic\.jpeg, \d+ bytes, mediaId med_[\w-]+\]$/,
    );
    expect(model.images.map((image) => [image.mediaType, image.bytes])).toEqual([["image/jpeg", CONVERTED_JPEG]]);
    expect(fake.server.requestsTo("GET", "/api/v1/attachment/:guid/download")).toHaveLength(1);
  });

  it("an audio message's bytes (as the server serves them) reach the transcription endpoint, its words the model", async () => {
    speech.script({ text: "please buy milk" });
    model.script({ text: "Noted: milk." });
    const recording = {
      bytes: caf.bytes,
      transferName: "Audio Message.caf",
      mimeType: "audio/x-caf",
      converted: { bytes: CONVERTED_M4A, mimeType: "audio/mp3", transferName: "Audio Message.mp3.mp3" },
    };
    await fake.deliver(fake.userSendsMedia({ chatGuid: DIRECT, from: ANN, files: [recording] }));
    await botSaid("Noted: milk.");
    expect(speech.uploads.map((upload) => upload.bytes)).toEqual([CONVERTED_M4A]);
    expect(lastUserText(model.requests.at(-1))).toMatch(/^\[voice note [^\]]*mediaId med_[\w-]+\] please buy milk$/);
  });

  it("the agent's image and file go out with the message tool as one iMessage, byte for byte, its text their caption", async () => {
    scriptMediaSend(model, {
      text: "Here you go",
      files: { "chart.png": png.bytes, "report.pdf": pdf.bytes },
      closing: "Sent them.",
    });
    await fake.deliver(fake.userSends({ chatGuid: DIRECT, from: ANN, text: "send me the chart and the report" }));
    await botSaid("Sent them.");
    const sent = await botSaid("Here you go");
    expect(fake.shown(sent.guid)?.files.map((file) => [file.kind, file.filename, file.bytes])).toEqual([
      ["image", "chart.png", png.bytes],
      ["file", "report.pdf", pdf.bytes],
    ]);
    expect(fake.server.requestsTo("POST", "/api/v1/attachment/upload")).toHaveLength(2);
  });
});
