import { createHash } from "node:crypto";
import { isChorusError, type MediaCapabilities, silentLogger } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { defaultMedia } from "../config/index.js";
import { type GatewayMedia, mediaSettingsOf, openMedia } from "../media/index.js";
import { createDeliver } from "../pipeline/index.js";
import { MessageIndex } from "../state/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import { type RecordingChannel, startRecordingChannel } from "./media-channel.test.util.js";
import { MediaSends } from "./media-send.js";
import { MessageToolExecutor } from "./message-tool.js";

const KB = 1024;
const MB = 1024 * KB;

/** Albums of two with captions, pins, every kind but stickers (Telegram-like). */
const ALBUMS: MediaCapabilities = {
  send: ["image", "video", "audio", "voice", "file", "location"],
  receive: [],
  maxSendBytes: 10 * MB,
  maxReceiveBytes: 10 * MB,
  caption: true,
  perMessage: 2,
};

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const png = sampleMedium("image").bytes;
const pdf = sampleMedium("file").bytes;
const ogg = sampleMedium("voice").bytes;

describe("send with media through the message tool (DESIGN §2.6)", () => {
  let test: TestState;
  let channel: RecordingChannel;
  let media: GatewayMedia;
  let index: MessageIndex;

  /** A gateway's executor on the test's state: a second one is a gateway restarted after a crash. */
  const executor = () => new MessageToolExecutor(channel.registry, index, new MediaSends(test.state, media));

  async function start(capabilities?: MediaCapabilities, publicUrl?: string): Promise<MessageToolExecutor> {
    test = await openTestState();
    media = await openMedia(test.state.db, mediaSettingsOf(defaultMedia(), test.home), { publicUrl });
    index = new MessageIndex({ db: test.state.db, refs: test.state.refs });
    channel = await startRecordingChannel(capabilities);
    return executor();
  }

  const count = async (table: string) =>
    Number((await test.state.db.one<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))?.n ?? 0);

  afterEach(async () => {
    await channel.stop();
    await index.flush();
    media.close();
    await test.close();
  });

  it("stores each item, plans it, records the outbox rows and sends every byte, in order", async () => {
    const tools = await start(ALBUMS);
    const result = await tools.execute({
      action: "send",
      channel: "rec",
      target: "c1",
      text: "The quarter",
      media: [
        { data: base64(png), filename: "chart.png" },
        { data: base64(pdf), caption: "the report" },
        { data: base64(ogg), as: "voice" },
      ],
    });
    expect(result).toEqual({
      ok: true,
      action: "send",
      messageId: "rec-1",
      messageIds: ["rec-1", "rec-2"],
      sentAs: ["image", "file", "voice"],
    });
    expect(channel.sends.map((s) => s.media)).toEqual([
      [
        {
          kind: "image",
          mime: "image/png",
          filename: "chart.png",
          size: png.byteLength,
          caption: "The quarter",
          bytes: png.byteLength,
          sha256: sha(png),
        },
        {
          kind: "file",
          mime: "application/pdf",
          filename: "file.pdf",
          size: pdf.byteLength,
          caption: "the report",
          bytes: pdf.byteLength,
          sha256: sha(pdf),
        },
      ],
      [
        {
          kind: "voice",
          mime: "audio/ogg",
          filename: "audio.ogg",
          size: ogg.byteLength,
          bytes: ogg.byteLength,
          sha256: sha(ogg),
        },
      ],
    ]);
    expect(channel.sends.map((s) => s.text)).toEqual(["", ""]);
    const rows = await test.state.db.all<{ status: string; platform_id: string; idempotency_key: string }>(
      "SELECT status, platform_id, idempotency_key FROM outbox ORDER BY id",
    );
    expect(rows.map((r) => [r.status, r.platform_id])).toEqual([
      ["sent", "rec-1"],
      ["sent", "rec-2"],
    ]);
    expect(channel.sends.map((s) => s.idempotencyKey)).toEqual(rows.map((r) => r.idempotency_key));
    expect(await count("media")).toBe(3);
  });

  it("the result says what a medium really went out as when the channel sent it as another kind", async () => {
    const tools = await start(ALBUMS);
    channel.sendVoiceAs("audio");
    const result = await tools.execute({
      action: "send",
      channel: "rec",
      target: "c1",
      media: [
        { data: base64(png), filename: "chart.png" },
        { data: base64(ogg), as: "voice" },
      ],
    });
    expect(result).toMatchObject({ ok: true, action: "send", sentAs: ["image", "audio"] });
  });

  it("a location goes as a pin where the channel has pins, else as text with a map link", async () => {
    const tools = await start(ALBUMS);
    const place = { latitude: 52.52, longitude: 13.405, name: "Alexanderplatz" };
    expect(await tools.execute({ action: "send", channel: "rec", target: "c1", location: place })).toMatchObject({
      sentAs: ["location"],
    });
    expect(channel.sends[0]).toMatchObject({ text: "", location: place, media: [] });
  });

  it("E_UNSUPPORTED and E_TOO_LARGE come before anything is stored, recorded or sent", async () => {
    const tools = await start({ ...ALBUMS, send: ["image"], maxSendBytes: 100 * KB });
    const unsupported = await tools
      .execute({ action: "send", channel: "rec", target: "c1", media: [{ data: base64(ogg), as: "voice" }] })
      .catch((e: unknown) => e);
    expect(isChorusError(unsupported) && [unsupported.code, unsupported.message]).toEqual([
      "E_UNSUPPORTED",
      "Rec cannot send a voice note (nor anything it falls back to); it sends image.",
    ]);
    const tooLarge = await tools
      .execute({ action: "send", channel: "rec", target: "c1", media: [{ data: base64(new Uint8Array(200 * KB)) }] })
      .catch((e: unknown) => e);
    expect(isChorusError(tooLarge) && [tooLarge.code, tooLarge.message]).toEqual([
      "E_TOO_LARGE",
      "media.0 is 200 KB; Rec takes media up to 100 KB.",
    ]);
    expect([await count("media"), await count("outbox"), channel.started]).toEqual([0, 0, 0]);
  });

  it("refused once the bytes are known (their kind, a later item), a send keeps none of what it stored", async () => {
    const tools = await start({ ...ALBUMS, send: ["image"] });
    const kind = await tools
      .execute({ action: "send", channel: "rec", target: "c1", media: [{ data: base64(png) }, { data: base64(pdf) }] })
      .catch((e: unknown) => e);
    expect(isChorusError(kind) && [kind.code, kind.message]).toEqual([
      "E_UNSUPPORTED",
      "Rec cannot send a file (nor anything it falls back to); it sends image.",
    ]);
    const later = await tools
      .execute({ action: "send", channel: "rec", target: "c1", media: [{ data: base64(png) }, { path: "nope.png" }] })
      .catch((e: unknown) => e);
    expect(isChorusError(later) && later.code).toBe("E_INVALID_INPUT");
    expect([await count("media"), await count("outbox"), channel.started]).toEqual([0, 0, 0]);
  });

  it("a channel without media refuses them at once", async () => {
    const tools = await start(undefined);
    await expect(
      tools.execute({ action: "send", channel: "rec", target: "c1", media: [{ data: base64(png) }] }),
    ).rejects.toThrow("Rec cannot send media.");
    expect([await count("media"), channel.started]).toEqual([0, 0]);
  });

  it("a link-only channel gets signed links to the stored media", async () => {
    const tools = await start(
      { send: [], receive: [], maxSendBytes: 0, maxReceiveBytes: 0, caption: false, perMessage: 1, linkOnly: true },
      "https://chat.example.com",
    );
    const result = await tools.execute({
      action: "send",
      channel: "rec",
      target: "c1",
      media: [{ data: base64(pdf), filename: "q3.pdf" }],
    });
    expect(result).toMatchObject({ sentAs: ["link"] });
    const line = channel.sends[0]?.text ?? "";
    expect(line).toMatch(/^q3\.pdf: https:\/\/chat\.example\.com\/v1\/media\/med_[\w-]+\?exp=\d+&sig=[\w-]+$/);
    const link = new URL(line.slice("q3.pdf: ".length));
    const mediaId = link.pathname.split("/").pop() as string;
    expect(media.links.verify(mediaId, link.searchParams.get("exp") ?? "", link.searchParams.get("sig") ?? "")).toBe(
      true,
    );
  });

  it("a message that fails ends the send: it and the rest are failed, never sent later; the error says what went out", async () => {
    const tools = await start({ ...ALBUMS, perMessage: 1 });
    channel.failAt(2);
    const error = await tools
      .execute({
        action: "send",
        channel: "rec",
        target: "c1",
        media: [{ data: base64(png) }, { data: base64(pdf) }, { data: base64(png) }],
      })
      .catch((e: unknown) => e);
    expect(isChorusError(error) && error.code).toBe("E_PLATFORM");
    expect(isChorusError(error) && error.details?.sentMessageIds).toEqual(["rec-1"]);
    const statuses = await test.state.db.all<{ status: string }>("SELECT status FROM outbox ORDER BY id");
    expect(statuses.map((r) => r.status)).toEqual(["sent", "failed", "failed"]);
  });

  it("rows this gateway's sweep read while they were pending are not sent again once the send made them", async () => {
    const tools = await start({ ...ALBUMS, caption: false });
    let release: () => void = () => undefined;
    channel.hold(
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    const sending = tools.execute({
      action: "send",
      channel: "rec",
      target: "c1",
      text: "Look",
      media: [{ data: base64(png) }],
    });
    while (channel.started === 0) await new Promise((resolve) => setImmediate(resolve));
    const stale = await test.state.outbox.pending();
    expect(stale.map((row) => row.text)).toEqual(["Look", ""]);
    release();
    const sent = await sending;
    expect(sent).toMatchObject({ messageIds: ["rec-1", "rec-2"] });
    const delivered = await createDeliver({ state: test.state, tools, logger: silentLogger })(stale);
    expect(delivered).toEqual(["rec-1", "rec-2"]);
    expect(channel.sends.map((s) => [s.text, s.media.length])).toEqual([
      ["Look", 0],
      ["", 1],
    ]);
  });

  it("resumed after a crash, a reply sends the same bytes from the store, once", async () => {
    const first = await start(ALBUMS);
    let release: () => void = () => undefined;
    channel.hold(
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    // The gateway sends, and dies while the platform has not taken the message.
    const cut = first.execute({
      action: "send",
      channel: "rec",
      target: "c1",
      media: [{ data: base64(pdf), caption: "resumed" }],
    });
    const pending = async () => test.state.outbox.pending();
    while (channel.started === 0) await new Promise((resolve) => setImmediate(resolve));
    const [row] = await pending();
    expect(row?.sessionKey).toBe("media:rec:default:c1");

    // This gateway's own sweep finds the row while the send is in flight: it waits for it, sends nothing itself.
    const sweep = createDeliver({ state: test.state, tools: first, logger: silentLogger })(await pending());
    release();
    expect(await cut).toMatchObject({ messageId: "rec-1" });
    expect(await sweep).toEqual(["rec-1"]);
    expect(channel.sends.length).toBe(1);

    // A gateway that crashed mid-send: the row is pending; the restarted gateway's deliver step sends it.
    channel.hold(new Promise<void>(() => undefined));
    void first
      .execute({ action: "send", channel: "rec", target: "c1", media: [{ data: base64(png), caption: "again" }] })
      .catch(() => undefined);
    while (channel.started === 1) await new Promise((resolve) => setImmediate(resolve));
    channel.hold(Promise.resolve());
    const restarted = executor();
    const left = await pending();
    expect(left.length).toBe(1);
    expect(await createDeliver({ state: test.state, tools: restarted, logger: silentLogger })(left)).toEqual(["rec-2"]);
    expect(channel.sends.map((s) => s.media.map((m) => [m.sha256, m.caption]))).toEqual([
      [[sha(pdf), "resumed"]],
      [[sha(png), "again"]],
    ]);
    expect(channel.sends[1]?.idempotencyKey).toBe(left[0]?.idempotencyKey);
    expect(await pending()).toEqual([]);
  });
});
