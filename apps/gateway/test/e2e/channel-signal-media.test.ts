import { fileURLToPath } from "node:url";
import { type FakeGroup, type FakePerson, FakeSignal, shownKind } from "@chorus/channel-signal/testing";
import { eventually, sampleMedium } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFakeOpenAI,
  createFakeTranscription,
  type FakeOpenAI,
  type FakeTranscription,
  lastUserText,
} from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-signal", import.meta.url));
const PATIENCE = { timeoutMs: 15_000 };
const png = sampleMedium("image");
const voice = sampleMedium("voice");
const pdf = sampleMedium("file");

/*
 * Signal media through the real `chorus start` (DESIGN §2.6): what people send reaches the agent
 * through the plugin's download (getAttachment on the fake daemon), and what the agent sends with
 * the message tool reaches the daemon as data: URIs, byte for byte.
 */
describe("Signal media through the real gateway process", () => {
  let fake: FakeSignal;
  let ann: FakePerson;
  let group: FakeGroup;
  let model: FakeOpenAI;
  let speech: FakeTranscription;
  let gateway: GatewayProcess;

  /** Waits for the bot's message `text` to `to` (a person's uuid or a group id) and returns it. */
  const botSaid = (to: string, text: string) =>
    eventually(() => {
      const found = fake.sentTo(to).find((m) => m.text === text);
      expect(
        found,
        `bot message ${JSON.stringify(text)}; got ${JSON.stringify(fake.sentTo(to).map((m) => m.text))}`,
      ).toBeDefined();
      return found as NonNullable<typeof found>;
    }, PATIENCE);

  beforeAll(async () => {
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    speech = await createFakeTranscription({ apiKey: "sk-speech" });
    // A daemon that flags voice notes (isVoiceNote, signal-cli after 0.14.6).
    fake = new FakeSignal({ bot: { number: "+15550001000", name: "Chorus" }, voiceNoteFlag: true });
    await fake.start();
    ann = fake.state.addPerson({ number: "+15550002222", name: "Ann" });
    group = fake.state.addGroup({ name: "Family", members: [ann] });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN] },
        channels: {
          signal: {
            ...fake.config({ reconnectMinMs: 50, reconnectMaxMs: 500 }),
            allowFrom: ["+15550002222"],
            groupPolicy: "open",
          },
        },
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
              groupChat: { mentionPatterns: ["\\bchorus\\b"] },
              model: {
                provider: "openai",
                baseURL: model.url,
                apiKey: "sk-test",
                model: "gpt-4o",
                maxRetries: 0,
                timeoutMs: 5000,
              },
            },
          ],
        },
      },
    });
    await eventually(() => expect(fake.events.open).toBe(1), PATIENCE);
  }, 40_000);

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await speech?.close();
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
      { text: "Sent them." },
    );
    fake.people.sends({ from: ann, text: "send me the chart and the report" });
    await botSaid(ann.uuid, "Sent them.");
    const sent = await botSaid(ann.uuid, "Here you go");
    expect(sent.attachments?.map((file) => [shownKind(file), file.filename, file.contentType])).toEqual([
      ["image", "chart.png", "image/png"],
      ["file", "report.pdf", "application/pdf"],
    ]);
    expect(sent.attachments?.map((file) => file.bytes)).toEqual([png.bytes, pdf.bytes]);
  });
});
