import { type FakeGroup, type FakePerson, FakeSignal, shownKind } from "@chorus/channel-signal/testing";
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

const { png, pdf, voice } = SAMPLES;

/*
 * Signal media through the real `chorus start` (DESIGN §2.6): what people send reaches the agent
 * through the plugin's download (getAttachment on the fake daemon), and what the agent sends with
 * the message tool reaches the daemon as data: URIs, byte for byte.
 */
describe("Signal media through the real gateway process", () => {
  let fake: FakeSignal;
  let ann: FakePerson;
  let group: FakeGroup;
  let modelAndSpeech: ModelAndSpeech | undefined;
  let model: FakeOpenAI;
  let speech: FakeTranscription;
  let gateway: GatewayProcess;

  /** Waits for the bot's message `text` to `to` (a person's uuid or a group id) and returns it. */
  const botSaid = (to: string, text: string) =>
    waitForBotMessage({
      sent: () => fake.sentTo(to),
      pick: (m) => m.text === text,
      what: `bot message ${JSON.stringify(text)}`,
      show: (m) => m.text,
    });

  beforeAll(async () => {
    modelAndSpeech = await startModelAndSpeech();
    ({ model, speech } = modelAndSpeech);
    // A daemon that flags voice notes (isVoiceNote, signal-cli after 0.14.6).
    fake = new FakeSignal({ bot: { number: "+15550001000", name: "Chorus" }, voiceNoteFlag: true });
    await fake.start();
    ann = fake.state.addPerson({ number: "+15550002222", name: "Ann" });
    group = fake.state.addGroup({ name: "Family", members: [ann] });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [pluginDir("channel-signal")] },
        channels: {
          signal: {
            ...fake.config({ reconnectMinMs: 50, reconnectMaxMs: 500 }),
            allowFrom: ["+15550002222"],
            groupPolicy: "open",
          },
        },
        agents: mediaAgents({ model, speech, mentionPatterns: ["\\bchorus\\b"] }),
      },
    });
    await eventually(() => expect(fake.events.open).toBe(1), PATIENCE);
  }, 40_000);

  afterAll(async () => {
    await gateway?.stop();
    await modelAndSpeech?.close();
    await fake?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("a photo with a caption reaches the model as image input, the bytes Ann sent", async () => {
    model.script({ text: "A tiny square." });
    fake.people.sends({
      from: ann,
      text: "what is this?",
      files: [{ bytes: png.bytes, contentType: png.mime, filename: "image.png" }],
    });
    await botSaid(ann.uuid, "A tiny square.");
    expect(lastUserText(model.requests.at(-1))).toMatch(
      /^what is this\?\n\[photo image\.png, \d+ bytes, mediaId med_[\w-]+\]$/,
    );
    expect(model.images.map((image) => [image.mediaType, image.bytes])).toEqual([["image/png", png.bytes]]);
    expect(fake.calls("getAttachment")).toHaveLength(1);
  });

  it("a voice note's bytes reach the transcription endpoint and its words the model", async () => {
    speech.script({ text: "please buy milk" });
    model.script({ text: "Noted: milk." });
    fake.people.sends({
      from: ann,
      text: null,
      files: [{ bytes: voice.bytes, contentType: voice.mime, voiceNote: true }],
    });
    await botSaid(ann.uuid, "Noted: milk.");
    expect(speech.uploads.map((upload) => upload.bytes)).toEqual([voice.bytes]);
    expect(lastUserText(model.requests.at(-1))).toMatch(/^\[voice note mediaId med_[\w-]+\] please buy milk$/);
  });

  it("in a group, short audio the daemon does not flag is heard before mention detection: a spoken 'Chorus' wakes the agent", async () => {
    speech.script({ text: "Chorus, what is for dinner?" });
    model.script({ text: "Pasta, Ann." });
    fake.people.sends({ from: ann, group, text: null, files: [{ bytes: voice.bytes, contentType: voice.mime }] });
    await botSaid(group.id, "Pasta, Ann.");
    expect(lastUserText(model.requests.at(-1))).toMatch(
      /^Ann: \[audio [^\]]*mediaId med_[\w-]+\] Chorus, what is for dinner\?/,
    );
  });

  it("the agent's image and file go out with the message tool, byte for byte, its text their caption", async () => {
    scriptMediaSend(model, {
      text: "Here you go",
      files: { "chart.png": png.bytes, "report.pdf": pdf.bytes },
      closing: "Sent them.",
    });
    fake.people.sends({ from: ann, text: "send me the chart and the report" });
    await botSaid(ann.uuid, "Sent them.");
    const sent = await botSaid(ann.uuid, "Here you go");
    expect(sent.attachments?.map((file) => [shownKind(file), file.filename, file.contentType])).toEqual([
      ["image", "chart.png", "image/png"],
      ["file", "report.pdf", "application/pdf"],
    ]);
    expect(sent.attachments?.map((file) => file.bytes)).toEqual([png.bytes, pdf.bytes]);
  });

  it("the agent's voice note goes out flagged as one (--voice-note), the bytes it sent", async () => {
    const before = fake.sentTo(ann.uuid).length;
    scriptMediaSend(model, { files: { "reply.ogg": { bytes: voice.bytes, as: "voice" } }, closing: "Spoke it." });
    fake.people.sends({ from: ann, text: "say it out loud" });
    await botSaid(ann.uuid, "Spoke it.");
    const withFiles = fake
      .sentTo(ann.uuid)
      .slice(before)
      .filter((m) => (m.attachments?.length ?? 0) > 0);
    expect(withFiles).toHaveLength(1);
    expect(withFiles[0]?.attachments?.map((file) => [shownKind(file), file.filename])).toEqual([
      ["voice", "reply.ogg"],
    ]);
    expect(withFiles[0]?.attachments?.map((file) => file.bytes)).toEqual([voice.bytes]);
  });
});
