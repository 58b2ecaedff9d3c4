import { createFakeZalo, type FakeZalo } from "@chorus/channel-zalouser/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, type FakeTranscription, lastUserText } from "../../src/testing/index.js";
import { type LoginProcess, startChannelLogin } from "../support/channel-login.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import {
  LONG_PATIENCE,
  type ModelAndSpeech,
  mediaAgents,
  pluginDir,
  SAMPLES,
  scriptMediaSend,
  startModelAndSpeech,
} from "../support/media-agent.js";

const ANN = { id: "3087412365498712001", name: "Ann Nguyen" };
const { png, pdf, voice } = SAMPLES;

/*
 * Zalo Personal media through the real `chorus start` (DESIGN §2.6), against the fake Zalo driving
 * the real zca-js: what Ann sends is downloaded by the plugin from Zalo's CDN (the fake's) and
 * reaches the model; what the agent sends with the message tool goes up through zca-js's own
 * upload calls and arrives on the fake byte for byte.
 */
describe("Zalo Personal media through the real gateway process", () => {
  let zalo: FakeZalo;
  let modelAndSpeech: ModelAndSpeech | undefined;
  let model: FakeOpenAI;
  let speech: FakeTranscription;
  let gateway: GatewayProcess;
  let login: LoginProcess | undefined;

  /** The bot's messages to Ann so far, as Zalo holds them. */
  const toAnn = () => zalo.botMessages(ANN.id);

  beforeAll(async () => {
    zalo = createFakeZalo({ bot: { id: "2153466178471249562", name: "Chorus" } });
    await zalo.start();
    zalo.addUser(ANN);
    modelAndSpeech = await startModelAndSpeech();
    ({ model, speech } = modelAndSpeech);
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [pluginDir("channel-zalouser")] },
        channels: { zalouser: { apiBase: zalo.url, dmPolicy: "open", reconnectMaxMs: 2_000 } },
        agents: mediaAgents({ model, speech }),
      },
    });
    // Linked as a person does it: the QR login, scanned and confirmed on the (fake) phone.
    login = startChannelLogin("zalouser", gateway.home);
    const [, qr] = await login.waitForOutput(/^QR code: (\S+)$/m);
    zalo.scanQr(qr);
    zalo.confirmQr(qr);
    expect(await login.exit(15_000)).toBe(0);
    await eventually(async () => {
      const rows = (await gateway.call("GET", "/v1/channels")).json.channels as {
        id: string;
        status?: { state?: string };
      }[];
      expect(rows.find((row) => row.id === "zalouser")?.status?.state).toBe("running");
    }, LONG_PATIENCE);
  }, 60_000);

  afterAll(async () => {
    login?.kill();
    await gateway?.stop();
    await modelAndSpeech?.close();
    await zalo?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("a photo with a caption reaches the model as image input, the bytes Ann sent", async () => {
    model.script({ text: "A tiny square." });
    await zalo.personSendsMedium({
      from: ANN.id,
      kind: "image",
      bytes: png.bytes,
      mime: png.mime,
      filename: "square.png",
      caption: "what is this?",
    });
    await eventually(() => expect(toAnn().map((m) => m.text)).toContain("A tiny square."), LONG_PATIENCE);
    expect(lastUserText(model.requests.at(-1))).toMatch(/what is this\?[\s\S]*mediaId med_[\w-]+/);
    expect(model.images.map((image) => [image.mediaType, image.bytes])).toEqual([["image/png", png.bytes]]);
    // Downloaded from the CDN, without the session's cookies.
    const cdn = zalo.server.requests.filter((r) => r.method === "GET" && r.path.startsWith("/p/"));
    expect(cdn).toHaveLength(1);
    expect(cdn[0]?.headers.cookie).toBeUndefined();
  });

  it("a voice message's bytes reach the transcription endpoint and its words the model", async () => {
    speech.script({ text: "please buy milk" });
    model.script({ text: "Noted: milk." });
    await zalo.personSendsMedium({
      from: ANN.id,
      kind: "voice",
      bytes: voice.bytes,
      mime: voice.mime,
      filename: "voice.ogg",
    });
    await eventually(() => expect(toAnn().map((m) => m.text)).toContain("Noted: milk."), LONG_PATIENCE);
    expect(speech.uploads.map((upload) => upload.bytes)).toEqual([voice.bytes]);
    expect(lastUserText(model.requests.at(-1))).toMatch(/\[voice note [^\]]*mediaId med_[\w-]+\] please buy milk/);
  });

  it("the agent's image and file go out with the message tool, byte for byte, its text the photo's caption", async () => {
    scriptMediaSend(model, {
      text: "Here you go",
      files: { "chart.png": png.bytes, "report.pdf": pdf.bytes },
      closing: "Sent them.",
    });
    await zalo.personSends({ from: ANN.id, text: "send me the chart and the report" });
    await eventually(() => expect(toAnn().map((m) => m.text)).toContain("Sent them."), LONG_PATIENCE);
    const media = toAnn().filter((m) => m.medium !== undefined);
    expect(media.map((m) => [m.medium?.kind, m.medium?.filename, m.medium?.caption])).toEqual([
      ["photo", "chart.png", "Here you go"],
      ["file", "report.pdf", undefined],
    ]);
    expect(media.map((m) => m.medium?.bytes)).toEqual([png.bytes, pdf.bytes]);
    expect(zalo.problems).toEqual([]);
  });
});
