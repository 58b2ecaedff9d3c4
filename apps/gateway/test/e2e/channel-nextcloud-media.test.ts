import { createFakeTalk, type FakeBot, type FakeTalk } from "@chorus/channel-nextcloud/testing";
import { eventually } from "@chorus/testkit";
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
} from "../support/media-agent.js";

const LINK_LIFETIME = "8s";
const LINK_LIFETIME_MS = 8_000;
const SECRET = "e2e-shared-secret-".padEnd(64, "m");
const LINKS_SECRET = "e2e-links-bot-secret-".padEnd(64, "l");
const APP_PASSWORD = "e2e-app-password-of-chorus-files";
/** Where the gateway is reachable from outside (behind a proxy): links and the bot's hook URL use it. */
const PUBLIC = "https://chorus.example.net";
const ada = { id: "ada", name: "Ada" };
const { png, pdf, voice } = SAMPLES;

/*
 * Media on Nextcloud Talk through the real `chorus start` (DESIGN §2.6): people's shared files
 * reach the model (downloaded over the fake's WebDAV as the bot's files user), and the agent's
 * media go out as each account can send them: uploaded and shared by the account with a files
 * login, link lines with the gateway's signed media links from the account without one.
 */
describe("Nextcloud Talk media through the real gateway process", () => {
  let talk: FakeTalk;
  let modelAndSpeech: ModelAndSpeech | undefined;
  let model: FakeOpenAI;
  let speech: FakeTranscription;
  let gateway: GatewayProcess;
  let bot: FakeBot;
  let linksBot: FakeBot;

  beforeAll(async () => {
    talk = createFakeTalk();
    await talk.start();
    talk.addRoom({ token: "dm", type: "one2one", users: ["ada", "chorus-bot"] });
    talk.addAccount({ id: "chorus-bot", appPassword: APP_PASSWORD, folders: ["Talk"] });
    modelAndSpeech = await startModelAndSpeech();
    ({ model, speech } = modelAndSpeech);
    gateway = await startGatewayProcess({
      config: {
        gateway: { publicUrl: PUBLIC },
        // Short enough for the links test to see a link expire; long enough to fetch it first.
        media: { linkLifetime: LINK_LIFETIME },
        plugins: { load: [pluginDir("channel-nextcloud")] },
        channels: {
          nextcloud: {
            accounts: {
              default: {
                baseUrl: talk.url,
                secret: SECRET,
                botName: "Chorus",
                dmPolicy: "open",
                files: { user: "chorus-bot", appPassword: APP_PASSWORD },
              },
              // A bot without a files login: its media can only go out as links.
              links: { baseUrl: talk.url, secret: LINKS_SECRET, botName: "Links", dmPolicy: "open" },
            },
          },
        },
        agents: mediaAgents({ model, speech }),
      },
    });
    // occ talk:bot:install with the public hook URL, talk:bot:setup for the conversation.
    bot = talk.installBot({ name: "Chorus", secret: SECRET, url: `${PUBLIC}/hooks/nextcloud/default` });
    talk.setupBot(bot, "dm");
    linksBot = talk.installBot({ name: "Links", secret: LINKS_SECRET, url: `${PUBLIC}/hooks/nextcloud/links` });
    talk.setupBot(linksBot, "dm");
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await modelAndSpeech?.close();
    await talk?.close();
    if (gateway) await removeHome(gateway.home);
  });

  /** What Talk posts to the bot, through the proxy to this gateway. */
  const deliver = (body: object) => talk.deliver(`${gateway.url}/hooks/nextcloud/default`, bot, body);
  const botMessages = (of: FakeBot = bot) =>
    talk
      .messagesIn("dm")
      .filter((m) => m.actorId === of.actorId)
      .map((m) => m.message);
  /** The agent answers with a caption, a chart and a report. */
  const scriptChartAndReport = () =>
    scriptMediaSend(model, {
      text: "Here you are",
      files: { "chart.png": png.bytes, "report.pdf": pdf.bytes },
      closing: "Sent.",
    });

  it("a photo shared with a caption reaches the model as an image, its bytes downloaded over WebDAV", async () => {
    model.script({ text: "A tiny square." });
    const hook = talk.userSharesFile({
      token: "dm",
      user: ada,
      name: "image.png",
      bytes: png.bytes,
      caption: "what is this?",
    });
    expect((await deliver(hook)).status).toBe(200);
    await eventually(() => expect(botMessages()).toContain("A tiny square."), LONG_PATIENCE);
    expect(model.images.map((image) => [image.mediaType, image.bytes])).toEqual([["image/png", png.bytes]]);
    expect(lastUserText(model.requests.at(-1))).toMatch(
      /^what is this\?\n\[photo image\.png, \d+ bytes, mediaId med_[\w-]+\]$/,
    );
    expect(talk.server.requestsTo("GET", "/remote.php/dav/files/chorus-bot/*").map((r) => r.path)).toEqual([
      "/remote.php/dav/files/chorus-bot/Talk/image.png",
    ]);
  }, 30_000);

  it("a voice recording's bytes reach the transcription endpoint and its words the model", async () => {
    speech.script({ text: "please buy milk" });
    model.script({ text: "Noted: milk." });
    const hook = talk.userSharesFile({ token: "dm", user: ada, name: "voice.ogg", bytes: voice.bytes });
    expect((await deliver(hook)).status).toBe(200);
    await eventually(() => expect(botMessages()).toContain("Noted: milk."), LONG_PATIENCE);
    expect(speech.uploads.map((upload) => upload.bytes)).toEqual([voice.bytes]);
    expect(lastUserText(model.requests.at(-1))).toContain("please buy milk");
  }, 30_000);

  it("the account with a files login uploads the agent's image and file over WebDAV and shares them", async () => {
    scriptChartAndReport();
    const hook = talk.userSends({ token: "dm", user: ada, message: "send me the chart and the report" });
    expect((await deliver(hook)).status).toBe(200);
    await eventually(() => expect(botMessages()).toContain("Sent."), LONG_PATIENCE);
    const uploaded = [...talk.state.files.files.values()].filter((file) => file.owner === "chorus-bot");
    expect(uploaded.map((file) => [file.path, file.bytes])).toEqual([
      ["Talk/chart.png", png.bytes],
      ["Talk/report.pdf", pdf.bytes],
    ]);
    expect(talk.state.files.shares.filter((share) => share.token === "dm").length).toBeGreaterThanOrEqual(2);
    // No link lines from this account: its media went up.
    expect(botMessages().some((m) => m.startsWith("chart.png: "))).toBe(false);
  }, 30_000);

  it("the account without one sends link lines whose signed links serve the bytes until they expire, then 403", async () => {
    scriptChartAndReport();
    const hook = talk.userSends({ token: "dm", user: ada, message: "send me the chart and the report" });
    const puts = talk.server.requestsTo("PUT", "/remote.php/dav/files/chorus-bot/*").length;
    expect((await talk.deliver(`${gateway.url}/hooks/nextcloud/links`, linksBot, hook)).status).toBe(200);
    await eventually(() => expect(botMessages(linksBot)).toContain("Sent."), LONG_PATIENCE);
    const lines = botMessages(linksBot).find((m) => m.startsWith("chart.png: "));
    expect(botMessages(linksBot)).toContain("Here you are");
    const links = (lines ?? "").split("\n").map((line) => /^(\S+): (\S+)$/.exec(line)?.slice(1));
    expect(links.map((link) => link?.[0])).toEqual(["chart.png", "report.pdf"]);
    for (const [index, bytes] of [png.bytes, pdf.bytes].entries()) {
      const link = new URL(links[index]?.[1] ?? "");
      expect(link.origin).toBe(PUBLIC);
      // The link works without the gateway's token (through the proxy: here, the gateway itself).
      const served = await fetch(`${gateway.url}${link.pathname}${link.search}`);
      expect(served.status).toBe(200);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    }
    // Link-only: nothing more was uploaded to Nextcloud.
    expect(talk.server.requestsTo("PUT", "/remote.php/dav/files/chorus-bot/*").length).toBe(puts);
    // Once `media.linkLifetime` has passed, the same link is refused.
    const first = new URL(links[0]?.[1] ?? "");
    const expiresAt = Number(first.searchParams.get("exp")) * 1000;
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(LINK_LIFETIME_MS);
    await eventually(
      async () => expect((await fetch(`${gateway.url}${first.pathname}${first.search}`)).status).toBe(403),
      { timeoutMs: LINK_LIFETIME_MS + 10_000, intervalMs: 500 },
    );
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
  }, 45_000);
});
