import { createHash } from "node:crypto";
import { request } from "node:https";
import { sampleMedium } from "@chorus/testkit";
import { downloadContentFromMessage, encryptedStream, getWAUploadToServer, type proto } from "@whiskeysockets/baileys";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeSession, openFakeSession } from "./fake-session.js";
import { silentBaileysLogger } from "./silent-logger.js";

/** The fake media host, driven by Baileys' own media functions (unmodified) and by raw HTTPS. */
describe("fake WhatsApp: the media host", () => {
  let session: FakeSession;
  beforeEach(async () => {
    session = await openFakeSession({ maxUploadBytes: 4096 });
  });
  afterEach(async () => {
    expect(session.fake.problems).toEqual([]);
    await session.close();
  });

  it("media_conn names the host and the upload auth, as Baileys' refreshMediaConn reads them", async () => {
    const { sock } = await session.connectOpen();
    const info = await sock.refreshMediaConn(true);
    expect(info.hosts.map((host) => host.hostname)).toEqual([session.fake.mediaHost]);
    expect(info.auth).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    expect(info.ttl).toBe(300);
    expect(sock.getMediaHost()).toBe(session.fake.mediaHost);
  }, 30_000);

  it("serves a person's medium so Baileys' downloadContentFromMessage decrypts it byte for byte", async () => {
    const { fake } = session;
    const voice = sampleMedium("voice");
    const message = fake.phoneMedium({ kind: "voice", bytes: voice.bytes }).audioMessage as proto.Message.IAudioMessage;
    expect(message).toMatchObject({
      ptt: true,
      mimetype: "audio/ogg; codecs=opus",
      fileLength: voice.bytes.byteLength,
    });
    expect(message.url).toBe(`https://${fake.mediaHost}${message.directPath}&mms3=true`);
    const stream = await downloadContentFromMessage(message, "audio", { host: fake.mediaHost });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(voice.bytes));
    expect(fake.mediaBytesServed).toBe(voice.bytes.byteLength + 16 - (voice.bytes.byteLength % 16) + 10);
  });

  it("takes Baileys' own upload (getWAUploadToServer) with the current auth, answering url and direct_path", async () => {
    const { fake } = session;
    const { sock } = await session.connectOpen();
    const image = sampleMedium("image");
    const encrypted = await encryptedStream(Buffer.from(image.bytes), "image");
    const upload = getWAUploadToServer(
      { customUploadHosts: [], fetchAgent: undefined, logger: silentBaileysLogger, options: {} } as never,
      sock.refreshMediaConn,
    );
    const answer = await upload(encrypted.encFilePath, {
      mediaType: "image",
      fileEncSha256B64: encrypted.fileEncSha256.toString("base64"),
      timeoutMs: 5000,
    });
    expect(answer.directPath).toMatch(
      /^\/v\/t62\.7118-24\/\d+_\d+_\d+_n\.enc\?ccb=11-4&oh=01_[\w-]+&oe=[0-9A-F]+&_nc_sid=5e03e0$/,
    );
    expect(answer.mediaUrl).toBe(`https://${fake.mediaHost}${answer.directPath}&mms3=true`);
    const [held] = fake.mediaUploads();
    expect(held).toMatchObject({ mmsType: "image", directPath: answer.directPath });
    expect(
      createHash("sha256")
        .update(held?.enc ?? Buffer.alloc(0))
        .digest(),
    ).toEqual(encrypted.fileEncSha256);
  }, 30_000);

  it("refuses an upload with the wrong auth (401), a token that is not its hash (400), or over its limit (413)", async () => {
    const { fake } = session;
    const body = Buffer.from("encrypted bytes");
    const token = createHash("sha256").update(body).digest("base64url");
    const post = (path: string, bytes: Buffer) =>
      new Promise<number>((resolve, reject) => {
        const [host, port] = fake.mediaHost.split(":");
        const req = request(
          { host, port: Number(port), method: "POST", path, headers: { "content-length": bytes.byteLength } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(bytes);
      });
    expect(await post(`/mms/image/${token}?auth=wrong&token=${token}`, body)).toBe(401);
    const auth = encodeURIComponent((await (await session.connectOpen()).sock.refreshMediaConn(true)).auth);
    expect(await post(`/mms/image/AAAA?auth=${auth}&token=AAAA`, body)).toBe(400);
    const big = Buffer.alloc(5000, 1);
    const bigToken = createHash("sha256").update(big).digest("base64url");
    expect(await post(`/mms/document/${bigToken}?auth=${auth}&token=${bigToken}`, big)).toBe(413);
    expect(await post(`/mms/image/${token}?auth=${auth}&token=${token}`, body)).toBe(200);
    expect(fake.mediaRefusals().map((refusal) => refusal.status)).toEqual([401, 400, 413]);
    expect(fake.mediaUploads()).toHaveLength(1);
  }, 30_000);

  it("answers 404 for a medium it does not hold, or no longer holds", async () => {
    const { fake } = session;
    const message = fake.phoneMedium({ kind: "image", bytes: sampleMedium("image").bytes }).imageMessage;
    fake.dropMedium(message?.directPath as string);
    await expect(
      downloadContentFromMessage(message as proto.Message.IImageMessage, "image", { host: fake.mediaHost }),
    ).rejects.toMatchObject({ output: { statusCode: 404 } });
  });
});
