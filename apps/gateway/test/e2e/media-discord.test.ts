import { fileURLToPath } from "node:url";
import { createFakeDiscord, type FakeDiscord } from "@chorus/channel-discord/testing";
import { eventually, sampleMedium } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFakeOpenAI,
  type FakeChatRequest,
  type FakeOpenAI,
  fakeModelConfig,
  lastUserText,
} from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { sameBytes, solidPng } from "../support/media-files.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-discord", import.meta.url));
const ANN = { id: "700000000000000001", username: "ann", global_name: "Ann" };
const CHANNEL = "200";
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/**
 * Media on Discord both ways (DESIGN §2.6), through the real `chorus start` with the Discord plugin
 * (discord.js) against its fake REST API, gateway WebSocket and CDN.
 */
describe("Discord media in and out, through the real gateway process", () => {
  let discord: FakeDiscord;
  let model: FakeOpenAI;
  let gateway: GatewayProcess;
  const fromBot = () => discord.messagesIn(CHANNEL).filter((m) => m.author.id === discord.bot.id);

  beforeAll(async () => {
    discord = createFakeDiscord();
    await discord.start();
    discord.addGuild({ id: "100", name: "Family", channels: [{ id: CHANNEL, name: "general" }] });
    discord.addMember("100", ANN);
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN] },
        channels: { discord: { ...discord.config(), groupPolicy: "open", dmPolicy: "open", reactionLevel: "off" } },
        agents: {
          list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test", vision: true }) }],
        },
      },
    });
    await eventually(() => expect(discord.gateway.sessions.size).toBe(1), { timeoutMs: 15_000 });
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await discord?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("a photo in reaches the model as an image part, the bytes from the CDN as sent", async () => {
    const photo = solidPng([20, 160, 90], 12);
    model.script({ text: "A green square." });
    discord.userSendsMedia({
      channelId: CHANNEL,
      author: ANN,
      content: `<@${discord.bot.id}> what is this?`,
      files: [{ bytes: photo, filename: "square.png", contentType: "image/png" }],
    });
    await eventually(() => expect(fromBot().map((m) => m.content)).toContain("A green square."), {
      timeoutMs: 15_000,
    });
    expect(lastUserText(model.requests[0])).toMatch(
      /^Ann: @Chorus what is this\?\n {2}\| \[photo square\.png, \d+ bytes, mediaId med_[\w-]+\]\n\[from: Ann\]$/,
    );
    const images = model.images.filter((image) => image.request === 0);
    expect(images.map((image) => image.mediaType)).toEqual(["image/png"]);
    expect(sameBytes(images[0]?.bytes, photo)).toBe(true);
    expect(discord.cdn.bytesServed).toBe(photo.byteLength);
  });

  it("the agent sends several files in one message: that photo by its mediaId, a PDF and an MP3, byte for byte", async () => {
    const mediaId = /mediaId (med_[\w-]+)/.exec(lastUserText(model.requests[0]))?.[1] as string;
    const pdf = sampleMedium("file");
    const mp3 = sampleMedium("audio");
    const before = model.requests.length;
    const sent = fromBot().length;
    model.script(
      {
        toolCalls: [
          {
            name: "message",
            arguments: {
              action: "send",
              text: "Your files",
              media: [
                { mediaId },
                { data: base64(pdf.bytes), filename: "report.pdf" },
                { data: base64(mp3.bytes), filename: "tune.mp3" },
              ],
            },
          },
        ],
      },
      { text: "Sent." },
    );
    discord.userSends({ channelId: CHANNEL, author: ANN, content: `<@${discord.bot.id}> send them back` });
    await eventually(() => expect(fromBot().map((m) => m.content)).toContain("Sent."), { timeoutMs: 15_000 });

    const result = (model.requests[before + 1] as FakeChatRequest).messages.find((m) => m.role === "tool");
    expect(JSON.parse(String(result?.content))).toMatchObject({ ok: true, sentAs: ["image", "file", "audio"] });
    const [withFiles, reply, ...rest] = fromBot().slice(sent);
    expect(rest).toEqual([]);
    expect(reply?.content).toBe("Sent.");
    expect(withFiles?.content).toBe("Your files");
    const photo = model.images[0]?.bytes as Uint8Array;
    expect(withFiles?.attachments.map((a) => [a.filename, a.size])).toEqual([
      ["square.png", photo.byteLength],
      ["report.pdf", pdf.bytes.byteLength],
      ["tune.mp3", mp3.bytes.byteLength],
    ]);
    const expected = [photo, pdf.bytes, mp3.bytes];
    expect(withFiles?.attachments.map((a, i) => sameBytes(a.bytes, expected[i] as Uint8Array))).toEqual([
      true,
      true,
      true,
    ]);
    // One request carried the three files (files[n] with payload_json).
    expect(discord.server.requestsTo("POST", `/api/v10/channels/${CHANNEL}/messages`).length).toBe(sent + 2);
  });
});
