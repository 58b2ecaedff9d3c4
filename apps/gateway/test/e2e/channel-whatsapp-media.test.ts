import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createFakeWhatsApp,
  type FakeGroup,
  type FakePerson,
  type FakeStoredMessage,
  type FakeWhatsApp,
  fakeMediaCaFile,
  saveLinkedCreds,
} from "@chorus/channel-whatsapp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, type FakeTranscription, lastUserText } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import {
  LONG_PATIENCE,
  type ModelAndSpeech,
  mediaAgents,
  pluginDir,
  SAMPLES,
  scriptMediaSend,
  startModelAndSpeech,
  waitForBotMessage,
} from "../support/media-agent.js";

const { png, pdf, voice } = SAMPLES;

/*
 * WhatsApp media through the real `chorus start`: people's media are encrypted on their "phones"
 * and uploaded to the fake's media host (HTTPS; the gateway trusts its certificate through
 * NODE_EXTRA_CA_CERTS), the plugin downloads and decrypts them for the gateway, and what the
 * agent sends is uploaded by Baileys and read back by the fake with the message's media key.
 */
describe("WhatsApp media through the real gateway process", () => {
  let wa: FakeWhatsApp;
  let modelAndSpeech: ModelAndSpeech | undefined;
  let model: FakeOpenAI;
  let speech: FakeTranscription;
  let home: string | undefined;
  let gateway: GatewayProcess | undefined;
  let ann: FakePerson;
  let bob: FakePerson;
  let family: FakeGroup;

  /** Waits for the bot's message in `chat` that `found` picks. */
  const botMessage = (chat: string, pick: (m: FakeStoredMessage) => boolean, what: string) =>
    waitForBotMessage({
      sent: () => wa.botMessages(chat),
      pick,
      what,
      show: (m) => [m.type, m.text],
      // Real Signal crypto in Baileys and in the fake, on a shared 2-core machine.
      patience: LONG_PATIENCE,
    });

  beforeAll(async () => {
    wa = createFakeWhatsApp({ botPhone: "15550001000", botName: "Chorus" });
    await wa.start();
    ann = wa.addPerson({ phone: "15550002222", name: "Ann" });
    bob = wa.addPerson({ phone: "15550003333", name: "Bob" });
    family = wa.addGroup({ subject: "Family", participants: [ann.phone, bob.phone] });
    modelAndSpeech = await startModelAndSpeech();
    ({ model, speech } = modelAndSpeech);
    home = await mkdtemp(join(tmpdir(), "chorus-home-"));
    await saveLinkedCreds(join(home, "state", "whatsapp", "default"), wa.linkedCreds());
    gateway = await startGatewayProcess({
      home,
      // Baileys reaches WhatsApp's media hosts over HTTPS only: the gateway trusts the fake's.
      env: { NODE_EXTRA_CA_CERTS: fakeMediaCaFile() },
      config: {
        plugins: { load: [pluginDir("channel-whatsapp")] },
        channels: {
          whatsapp: {
            waWebSocketUrl: wa.url,
            dmPolicy: "allowlist",
            allowFrom: [`+${ann.phone}`],
            groupPolicy: "allowlist",
            groupAllowFrom: [`+${ann.phone}`],
            groups: { "*": { requireMention: true } },
          },
        },
        agents: mediaAgents({ model, speech, mentionPatterns: ["\\bchorus\\b"] }),
      },
    });
    await wa.waitForLogin(1, 20_000);
  }, 40_000);

  afterAll(async () => {
    await gateway?.stop();
    await modelAndSpeech?.close();
    await wa?.close();
    if (home) await removeHome(home);
  });

  it("a photo with a caption reaches the model as an image part, the bytes Ann's phone encrypted", async () => {
    model.script({ text: "A tiny square." });
    const before = model.requests.length;
    wa.personSendsMedium({
      from: ann.phone,
      kind: "image",
      bytes: png.bytes,
      mime: png.mime,
      caption: "what is this?",
    });
    await botMessage(ann.jid, (m) => m.text === "A tiny square.", "the answer to the photo");
    const request = model.requests[before];
    expect(lastUserText(request)).toMatch(/^what is this\?\n\[photo .*mediaId med_[\w-]+\]$/);
    expect(
      model.images.filter((image) => image.request === before).map((image) => [image.mediaType, image.bytes]),
    ).toEqual([["image/png", png.bytes]]);
    expect(wa.problems).toEqual([]);
  });

  it("in the group, Ann's unmentioned voice note saying 'Chorus' wakes the agent: its bytes reach the transcription endpoint, its words the model; Bob's is never downloaded", async () => {
    speech.script({ text: "Chorus, what is for dinner?" });
    model.script({ text: "Pasta, Ann." });
    const before = model.requests.length;
    const uploads = speech.uploads.length;
    const served = wa.mediaBytesServed;
    // Bob is not in groupAllowFrom: his voice note is blocked before anything is downloaded.
    wa.personSendsMedium({ from: bob.phone, chat: family.id, kind: "voice", bytes: voice.bytes, seconds: 1 });
    wa.personSendsMedium({ from: ann.phone, chat: family.id, kind: "voice", bytes: voice.bytes, seconds: 1 });
    await botMessage(family.id, (m) => m.text === "Pasta, Ann.", "the answer to the voice note");
    expect(speech.uploads.slice(uploads).map((upload) => upload.bytes)).toEqual([voice.bytes]);
    expect(lastUserText(model.requests[before])).toMatch(
      /\[voice note 0:01, mediaId med_[\w-]+\] Chorus, what is for dinner\?/,
    );
    expect(model.requests).toHaveLength(before + 1);
    // One download, Ann's: her medium's encrypted bytes (padding and MAC included).
    expect(wa.mediaBytesServed - served).toBe(voice.bytes.byteLength + 16 - (voice.bytes.byteLength % 16) + 10);
  });

  it("the agent's message tool sends a photo with a caption and a PDF: both arrive byte for byte", async () => {
    scriptMediaSend(model, {
      text: "Here is the chart",
      files: { "chart.png": png.bytes, "report.pdf": pdf.bytes },
      closing: "Sent both.",
    });
    wa.personSends({ from: ann.phone, text: "send me the chart and the report" });
    await botMessage(ann.jid, (m) => m.text === "Sent both.", "the agent's closing words");
    const photo = await botMessage(ann.jid, (m) => m.type === "imageMessage", "the photo");
    const document = await botMessage(ann.jid, (m) => m.type === "documentMessage", "the document");
    expect(wa.mediumOf(photo)).toMatchObject({
      kind: "image",
      caption: "Here is the chart",
      bytes: Buffer.from(png.bytes),
    });
    expect(wa.mediumOf(document)).toMatchObject({
      kind: "file",
      fileName: "report.pdf",
      bytes: Buffer.from(pdf.bytes),
    });
    expect(wa.problems).toEqual([]);
  });

  it("the agent's voice note arrives as a PTT, the Ogg/Opus bytes it sent", async () => {
    scriptMediaSend(model, { files: { "reply.ogg": { bytes: voice.bytes, as: "voice" } }, closing: "Spoke it." });
    wa.personSends({ from: ann.phone, text: "say it out loud" });
    await botMessage(ann.jid, (m) => m.text === "Spoke it.", "the agent's closing words");
    const note = await botMessage(ann.jid, (m) => m.type === "audioMessage", "the voice note");
    expect(wa.mediumOf(note)).toMatchObject({ kind: "voice", bytes: Buffer.from(voice.bytes) });
    expect(wa.problems).toEqual([]);
  });
});
