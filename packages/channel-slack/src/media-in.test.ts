import { readFileSync } from "node:fs";
import { collectBytes, Redactor } from "@chorus/channel-kit";
import { type Attachment, type ChorusError, type InboundMessageEvent, isChorusError, silentLogger } from "@chorus/core";
import { type RunningChannel, sampleMedium, startChannel } from "@chorus/testkit";
import { WebClient } from "@slack/web-api";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SlackApi } from "./api.js";
import { slackConfigSchema } from "./config.js";
import { Directory } from "./directory.js";
import { normalizePayload } from "./inbound.js";
import { slackChannel } from "./index.js";
import { createFakeSlack, type FakeSlack, type FakeSlackOptions } from "./testing/index.js";
import { webClientOptions } from "./web.js";

const BOT = { userId: "U0LAN0Z89", botId: "B0BOTID001" };
const scope = { channel: "slack", accountId: "default", botId: BOT.userId };
/** A Slack documented event (`fixtures/`), inside the Events API wrapper. */
const wrapped = (name: string) => ({
  type: "event_callback",
  event_id: "Ev0FIXTURE1",
  event: JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")) as unknown,
});

describe("Slack's file objects as attachments (fixtures)", () => {
  let fake: FakeSlack;
  let directory: Directory;
  const normalize = async (name: string) =>
    (await normalizePayload(wrapped(name), scope, BOT, directory)) as InboundMessageEvent;

  beforeAll(async () => {
    fake = createFakeSlack({ bot: { id: BOT.userId, bot_id: BOT.botId, name: "chorus" } });
    await fake.start();
    fake.addUser({ id: "U061F7AUR", name: "ann", display_name: "Ann" });
    const config = slackConfigSchema.parse(fake.config());
    const signal = new AbortController().signal;
    const web = new WebClient(config.botToken, webClientOptions(config, { signal, logger: silentLogger }));
    directory = new Directory(new SlackApi(web, config, { signal, redactor: new Redactor([]) }), 60_000, silentLogger);
  });
  afterAll(() => fake.close());

  it("reads Slack's documented file_share message: the image with its type, size, name, dimensions and download URL", async () => {
    const event = await normalize("message-file-share-docs");
    expect(event).toMatchObject({ text: "We got one!", conversation: { id: "D0L4B9P0Q", kind: "direct" } });
    expect(event.attachments).toEqual([
      {
        kind: "image",
        mime: "image/png",
        size: 196920,
        filename: "ghostrap.png",
        width: 512,
        height: 512,
        source: {
          fileId: "F0RDC39U1",
          url: "https://files.slack.com/files-pri/T061EG9R6-F0RDC39U1/download/ghostrap.png",
        },
      },
    ]);
  });

  it("turns every file of a message into an attachment, in order (not only the first)", async () => {
    const event = await normalize("message-two-files");
    expect(event.attachments?.map((a) => [a.kind, a.filename, a.mime, a.size])).toEqual([
      ["image", "ghostrap.png", "image/png", 196920],
      ["image", "tedair.gif", "image/gif", 137531],
    ]);
    expect(event.attachments?.map((a) => (a.source as { fileId: string }).fileId)).toEqual(["F0RDC39U1", "F0S43PZDF"]);
  });

  it("reads a clip recorded in Slack as a voice note, and keeps files Slack withholds, saying why", async () => {
    const event = await normalize("message-clip-and-withheld");
    expect(event.text).toBe("");
    const [clip, ...withheld] = event.attachments ?? [];
    expect(clip).toMatchObject({ kind: "voice", mime: "audio/mp4", durationMs: 12480, filename: "audio_message.m4a" });
    expect(withheld.map((a) => [a.kind, a.source])).toEqual([
      ["file", { fileId: "F0GONE0001", unavailable: "deleted" }],
      ["file", { fileId: "F0HIDDEN01", unavailable: "hidden_by_limit" }],
      ["file", { fileId: "F0DENIED01", unavailable: "access_denied" }],
      ["file", { fileId: "F0GDRIVE01", unavailable: "external", externalType: "gdrive" }],
    ]);
  });

  it("keeps a Slack Connect stub as a file to look up when no lookup is at hand", async () => {
    const event = await normalize("message-file-connect");
    expect(event.attachments).toEqual([{ kind: "file", source: { fileId: "F123ABC456" } }]);
  });
});

describe("files people share, downloaded from the fake Slack's file hosts", () => {
  const ANN = "U0ANN00001";
  const TEAM = "C0TEAM0001";
  const TOKEN = "xoxb-canary-media-in-7733-token";
  const png = sampleMedium("image");
  const pdf = sampleMedium("file");
  let fake: FakeSlack;
  let running: RunningChannel | undefined;

  const start = async (options: FakeSlackOptions = {}) => {
    fake = createFakeSlack({ botToken: TOKEN, ...options });
    await fake.start();
    fake.addUser({ id: ANN, name: "ann" });
    fake.addConversation({ id: TEAM, type: "channel", name: "team", members: [fake.bot.id, ANN] });
    running = await startChannel(slackChannel, { config: fake.config({ retries: 0 }) });
    return running;
  };
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await fake.close();
  });

  /** Someone shares `files`; the one message event they became. */
  const shares = async (files: Parameters<FakeSlack["userSendsFiles"]>[0]["files"], extra = {}) => {
    const r = running as RunningChannel;
    const sent = await fake.userSendsFiles({ channel: TEAM, user: ANN, files, ...extra });
    return r.waitForEvent(
      (e): e is InboundMessageEvent => e.type === "message" && e.ref.messageId === sent.ts,
    ) as Promise<InboundMessageEvent>;
  };
  const download = async (attachment: Attachment, maxBytes = 1024 * 1024) => {
    const medium = await (running as RunningChannel).instance.download?.(attachment, { maxBytes });
    if (!medium) throw new Error("no download");
    return { ...medium, bytes: await collectBytes(medium.stream, maxBytes, "test") };
  };
  const failure = (attachment: Attachment) =>
    download(attachment).then(
      () => undefined,
      (error: unknown) => error as ChorusError,
    );
  const authorizations = (server: FakeSlack["server"]) => server.requests.map((r) => r.headers.authorization);

  it("a message with two files and a caption is one event with both; each downloads byte for byte with the bot token", async () => {
    await start();
    const event = await shares(
      [
        { name: png.filename, bytes: png.bytes, mimetype: png.mime },
        { name: "notes.pdf", bytes: pdf.bytes },
      ],
      { text: "both of these" },
    );
    expect(event.text).toBe("both of these");
    expect(event.attachments?.map((a) => [a.kind, a.filename, a.mime, a.size])).toEqual([
      ["image", png.filename, png.mime, png.bytes.byteLength],
      ["file", "notes.pdf", "application/pdf", pdf.bytes.byteLength],
    ]);
    const [image, file] = event.attachments as Attachment[];
    const got = [await download(image as Attachment), await download(file as Attachment)];
    expect(
      got.map((g) => [g.mime, g.size, Buffer.from(g.bytes).equals(Buffer.from(g === got[0] ? png.bytes : pdf.bytes))]),
    ).toEqual([
      [png.mime, png.bytes.byteLength, true],
      ["application/pdf", pdf.bytes.byteLength, true],
    ]);
    expect(authorizations(fake.media.hosts.host)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expect(fake.media.bytesServed).toBe(png.bytes.byteLength + pdf.bytes.byteLength);
  });

  it("a file shared without text is an event with an empty text and the attachment", async () => {
    await start();
    const event = await shares([{ name: "scan.pdf", bytes: pdf.bytes }]);
    expect([event.text, event.attachments?.length]).toEqual(["", 1]);
  });

  it("follows Enterprise Grid's redirect to files-origin with the token (a fileHosts origin)", async () => {
    await start({ downloadRedirect: "origin" });
    const [image] = (await shares([{ name: png.filename, bytes: png.bytes }])).attachments as Attachment[];
    expect(Buffer.from((await download(image as Attachment)).bytes).equals(Buffer.from(png.bytes))).toBe(true);
    expect(authorizations(fake.media.hosts.host)).toEqual([`Bearer ${TOKEN}`]);
    expect(authorizations(fake.media.hosts.origin)).toEqual([`Bearer ${TOKEN}`]);
  });

  it("follows a redirect to a CDN's signed URL without the token", async () => {
    await start({ downloadRedirect: "edge" });
    const [image] = (await shares([{ name: png.filename, bytes: png.bytes }])).attachments as Attachment[];
    expect(Buffer.from((await download(image as Attachment)).bytes).equals(Buffer.from(png.bytes))).toBe(true);
    expect(fake.media.hosts.edge.requests).toHaveLength(1);
    expect(authorizations(fake.media.hosts.edge)).toEqual([undefined]);
  });

  it("without files:read Slack redirects to its sign-in page: E_AUTH naming the scope, and the token never went there", async () => {
    await start({ scopes: ["chat:write", "users:read", "channels:read", "channels:history"] });
    const [image] = (await shares([{ name: png.filename, bytes: png.bytes }])).attachments as Attachment[];
    const error = await failure(image as Attachment);
    expect(error?.code).toBe("E_AUTH");
    expect(error?.message).toContain("sign-in page");
    expect(error?.hint).toContain("files:read");
    const signIn = fake.server.requestsTo("GET", "/");
    expect(signIn).toHaveLength(1);
    expect(signIn[0]?.headers.authorization).toBeUndefined();
    expect(JSON.stringify([error, error?.hint, running?.logs.records])).not.toContain(TOKEN);
  });

  it("refuses a URL off the file hosts before any request, so the token goes nowhere else", async () => {
    await start();
    const outside = `${fake.media.hosts.edge.url}/files-pri/T0-F0ELSEWHERE/download/x.png`;
    const error = await failure({ kind: "image", source: { fileId: "F0ELSEWHERE", url: outside } });
    expect([error?.code, error?.message]).toEqual([
      "E_INVALID_INPUT",
      "Slack file F0ELSEWHERE is not on Slack's file hosts; it was not downloaded.",
    ]);
    expect(error?.hint).toContain("fileHosts");
    expect(fake.media.hosts.edge.requests).toHaveLength(0);
  });

  it("says why Slack withholds a file, without asking Slack", async () => {
    await start();
    const reason = async (source: Record<string, string>) => {
      const error = await failure({ kind: "file", source });
      return [error?.code, error?.message];
    };
    expect(await reason({ fileId: "F0GONE0001", unavailable: "deleted" })).toEqual([
      "E_MESSAGE_NOT_FOUND",
      "Slack file F0GONE0001 was deleted: Slack does not give the bot its bytes.",
    ]);
    expect((await reason({ fileId: "F0DENIED01", unavailable: "access_denied" }))[0]).toBe("E_AUTH");
    expect(await reason({ fileId: "F0GDRIVE01", unavailable: "external", externalType: "gdrive" })).toEqual([
      "E_UNSUPPORTED",
      "Slack file F0GDRIVE01 is hosted outside Slack (gdrive): Slack does not give the bot its bytes.",
    ]);
    expect(fake.media.hosts.host.requests).toHaveLength(0);
  });

  it("completes a Slack Connect stub with files.info, so the attachment is typed and downloads", async () => {
    await start();
    const event = await shares([{ name: png.filename, bytes: png.bytes }], { connect: true });
    const events = fake.mode === "socket" ? fake.socket.envelopes : [];
    expect(JSON.stringify(events.at(-1))).toContain("check_file_info");
    expect(event.attachments).toEqual([
      expect.objectContaining({ kind: "image", mime: png.mime, size: png.bytes.byteLength, filename: png.filename }),
    ]);
    expect(fake.server.requestsTo("POST", "/api/files.info")).toHaveLength(1);
    const got = await download((event.attachments as Attachment[])[0] as Attachment);
    expect(Buffer.from(got.bytes).equals(Buffer.from(png.bytes))).toBe(true);
  });

  it("a file larger than the cap is E_TOO_LARGE before a byte is served", async () => {
    await start();
    const [file] = (await shares([{ name: "big.pdf", bytes: new Uint8Array(200_000) }])).attachments as Attachment[];
    const error = await download(file as Attachment, 64 * 1024).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isChorusError(error) && error.code).toBe("E_TOO_LARGE");
    expect(fake.media.bytesServed).toBe(0);
  });
});
