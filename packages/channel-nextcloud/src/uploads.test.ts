import { createHash } from "node:crypto";
import { type ChorusError, isChorusError, type OutboundMedium } from "@chorus/core";
import { type RunningChannel, sampleMedium, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BOT_API_PATH } from "./client.js";
import { nextcloudChannel } from "./index.js";
import { filesUser, shownOnTalk } from "./media-harness.test-util.js";
import { createFakeTalk, type FakeBot, type FakeTalk } from "./testing/index.js";
import { SHARE_API_PATH } from "./uploads.js";

const APP_PASSWORD = "app-password-of-chorus-bot-7f3a";
const FILES = { user: filesUser.id, appPassword: APP_PASSWORD };
const ann = { id: "ann", name: "Ann" };
let fake: FakeTalk;
let bot: FakeBot;
let running: RunningChannel | undefined;

/** A medium of the testkit's sample bytes, as core hands it to `send`. */
function medium(kind: "image" | "voice" | "file", extra: Partial<OutboundMedium> = {}): OutboundMedium {
  const sample = sampleMedium(kind);
  return {
    kind,
    mime: sample.mime,
    filename: sample.filename,
    size: sample.bytes.byteLength,
    open: () => new Response(sample.bytes.slice()).body as ReadableStream<Uint8Array>,
    ...extra,
  };
}

async function start(extra: Record<string, unknown> = {}) {
  running = await startChannel(nextcloudChannel, { config: fake.config(bot, { files: FILES, retries: 1, ...extra }) });
  return running;
}

async function refusal(promise: Promise<unknown>): Promise<ChorusError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isChorusError(error)) throw new Error(`expected a ChorusError, got ${String(error)}`);
  return error;
}

beforeEach(async () => {
  fake = createFakeTalk();
  await fake.start();
  bot = fake.installBot({ name: "Chorus", secret: "k".repeat(64), url: "https://gw/hooks/nextcloud/default" });
  fake.addRoom({ token: "team", name: "Team" });
  fake.setupBot(bot, "team");
  fake.addAccount({ id: filesUser.id, displayName: filesUser.name, appPassword: APP_PASSWORD });
  fake.addParticipant("team", filesUser.id);
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await fake.close();
});

describe("uploads (files configured)", () => {
  it("uploads the bytes over WebDAV (creating the Talk folder) and shares them with the caption", async () => {
    const { instance } = await start();
    const ref = await instance.send({ id: "team" }, { text: "", media: [medium("image", { caption: "Look" })] });
    const png = sampleMedium("image").bytes;
    expect(shownOnTalk(fake, ref.messageId)).toEqual({
      media: [{ kind: "image", bytes: png, filename: "image.png", caption: "Look" }],
      text: "Look",
    });
    // The first PUT found no folder (409): MKCOL, then the same PUT, streamed with its length.
    const puts = fake.server.requestsTo("PUT", "/remote.php/dav/files/chorus-bot/*");
    expect(puts.map((r) => r.status)).toEqual([409, 201]);
    expect(fake.server.requestsTo("MKCOL", "/remote.php/dav/files/chorus-bot/*").map((r) => r.path)).toEqual([
      "/remote.php/dav/files/chorus-bot/Talk",
    ]);
    expect(puts[1]?.headers).toMatchObject({
      "content-length": String(png.byteLength),
      "content-type": "image/png",
      "if-none-match": "*",
    });
    const [share] = fake.server.requestsTo("POST", SHARE_API_PATH);
    const referenceId = ref.messageId.replace("ref:", "");
    expect(share?.body).toEqual({
      path: "/Talk/image.png",
      shareType: 10,
      shareWith: "team",
      referenceId,
      talkMetaData: JSON.stringify({ caption: "Look" }),
    });
    expect(ref).toMatchObject({ conversationId: "team", fromBot: true, data: { referenceId, pending: true } });
    // Sent as the files user; the bot API was not used.
    expect(fake.messagesIn("team").map((m) => m.actorId)).toEqual(["users/chorus-bot"]);
    expect(fake.server.requestsTo("POST", `${BOT_API_PATH}/team/message`)).toEqual([]);
  });

  it("never overwrites: a taken name becomes `name (2).ext`, the first file keeps its bytes", async () => {
    const { instance } = await start();
    const first = await instance.send({ id: "team" }, { text: "", media: [medium("file")] });
    const other = new Uint8Array([37, 80, 68, 70, 9, 9]);
    const second = await instance.send(
      { id: "team" },
      { text: "", media: [medium("file", { size: other.byteLength, open: () => new Response(other).body as never })] },
    );
    expect(shownOnTalk(fake, first.messageId).media[0]).toMatchObject({
      filename: "file.pdf",
      bytes: sampleMedium("file").bytes,
    });
    expect(shownOnTalk(fake, second.messageId).media[0]).toMatchObject({ filename: "file (2).pdf", bytes: other });
  });

  it("a voice note is shared as a voice message, and the first item answers replyTo", async () => {
    const { instance } = await start();
    const hook = fake.userSends({ token: "team", user: ann, message: "say something" });
    const replyTo = await instance.resolveMessageRef({ id: "team" }, hook.object.id);
    const ref = await instance.send({ id: "team" }, { text: "", media: [medium("voice")], replyTo });
    expect(shownOnTalk(fake, ref.messageId).media).toMatchObject([{ kind: "voice", filename: "voice.ogg" }]);
    const [share] = fake.server.requestsTo("POST", SHARE_API_PATH);
    expect(JSON.parse((share?.body as { talkMetaData: string } | undefined)?.talkMetaData ?? "{}")).toEqual({
      messageType: "voice-message",
      replyTo: Number(hook.object.id),
    });
    expect(fake.sharedMessage(ref.messageId.replace("ref:", ""))?.message.replyTo).toBe(Number(hook.object.id));
  });

  it("text with media goes first, from the bot; the same idempotency key gives the same referenceIds", async () => {
    const { instance } = await start();
    const ref = await instance.send(
      { id: "team" },
      { text: "Here it is", media: [medium("file")], idempotencyKey: "outbox-17" },
    );
    const sha = (part: string) => createHash("sha256").update(`outbox-17:${part}`).digest("hex");
    expect(ref.messageId).toBe(`ref:${sha("0")}`);
    expect(fake.messagesIn("team").map((m) => [m.actorId, m.message, m.referenceId])).toEqual([
      [bot.actorId, "Here it is", sha("0")],
      ["users/chorus-bot", "{file}", sha("media:0")],
    ]);
  });

  it("a share whose answer was lost is retried, and Talk's 'already shared' is the share made: one message", async () => {
    const { instance } = await start();
    fake.loseNextShareAnswer();
    const ref = await instance.send({ id: "team" }, { text: "", media: [medium("file")] });
    expect(fake.server.requestsTo("POST", SHARE_API_PATH).map((r) => r.status)).toEqual([504, 403]);
    expect(fake.messagesIn("team")).toHaveLength(1);
    expect(shownOnTalk(fake, ref.messageId).media).toHaveLength(1);
  });

  it("over files.maxUploadBytes: E_TOO_LARGE before any request", async () => {
    const { instance } = await start({ files: { ...FILES, maxUploadBytes: 20 } });
    const error = await refusal(instance.send({ id: "team" }, { text: "hi", media: [medium("image")] }));
    expect(error.code).toBe("E_TOO_LARGE");
    expect(error.hint).toContain("files.maxUploadBytes");
    expect(fake.server.requests).toEqual([]);
  });

  it("the server's own 413 is E_TOO_LARGE, and nothing is shared", async () => {
    await fake.close();
    fake = createFakeTalk({ maxUploadBytes: 20 });
    await fake.start();
    bot = fake.installBot({ name: "Chorus", secret: "k".repeat(64), url: "https://gw/hooks/nextcloud/default" });
    fake.addRoom({ token: "team", name: "Team" });
    fake.addAccount({ id: filesUser.id, appPassword: APP_PASSWORD, folders: ["Talk"] });
    fake.addParticipant("team", filesUser.id);
    const { instance } = await start();
    const error = await refusal(instance.send({ id: "team" }, { text: "", media: [medium("image")] }));
    expect(error.code).toBe("E_TOO_LARGE");
    expect(error.message).toContain("HTTP 413");
    expect(fake.server.requestsTo("POST", SHARE_API_PATH)).toEqual([]);
    expect(fake.messagesIn("team")).toEqual([]);
  });

  it("a wrong app password is E_AUTH naming the setting, and neither the password nor its Basic form is told", async () => {
    const { instance } = await start({ files: { ...FILES, appPassword: "wrong-app-password-1234" } });
    const error = await refusal(instance.send({ id: "team" }, { text: "", media: [medium("file")] }));
    expect(error.code).toBe("E_AUTH");
    expect(error.hint).toContain("files.appPassword");
    const told = JSON.stringify({ error, message: error.message, logs: running?.logs.text() });
    expect(told).not.toContain("wrong-app-password-1234");
    expect(told).not.toContain(Buffer.from(`chorus-bot:wrong-app-password-1234`).toString("base64"));
  });

  it("a files user outside the conversation: E_AUTH saying to add it; the file is uploaded, no message", async () => {
    fake.addRoom({ token: "other", name: "Other" });
    const { instance } = await start();
    const error = await refusal(instance.send({ id: "other" }, { text: "", media: [medium("file")] }));
    expect(error.code).toBe("E_AUTH");
    expect(error.message).toContain("Conversation not found");
    expect(error.hint).toContain('"chorus-bot"');
    expect(fake.messagesIn("other")).toEqual([]);
  });
});

describe("without files", () => {
  it("media are refused with E_UNSUPPORTED naming the setting, before any request", async () => {
    running = await startChannel(nextcloudChannel, { config: fake.config(bot) });
    const error = await refusal(running.instance.send({ id: "team" }, { text: "", media: [medium("image")] }));
    expect(error.code).toBe("E_UNSUPPORTED");
    expect(error.hint).toContain("channels.nextcloud.files");
    expect(fake.server.requests).toEqual([]);
  });

  it("a link line (what core plans for a link-only channel) is a text message of the bot", async () => {
    running = await startChannel(nextcloudChannel, { config: fake.config(bot) });
    await running.instance.send({ id: "team" }, { text: "chart.png: https://gw.example/v1/media/med_1?exp=1&sig=x" });
    expect(fake.messagesIn("team").map((m) => [m.actorId, m.message])).toEqual([
      [bot.actorId, "chart.png: https://gw.example/v1/media/med_1?exp=1&sig=x"],
    ]);
  });
});
