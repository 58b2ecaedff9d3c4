import { collectBytes } from "@chorus/channel-kit";
import { type Attachment, type InboundMessageEvent, isChorusError } from "@chorus/core";
import type { RunningChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixture, startOnFake, stopOnFake } from "./test-support.test-util.js";
import type { FakeBlueBubbles } from "./testing/index.js";

const GROUP = "iMessage;+;chat42";
const ANN = "+15550001111";
const PASSWORD = "fake-password";
let fake: FakeBlueBubbles;
let running: RunningChannel;
let hookUrl: string;

beforeEach(async () => {
  ({ fake, running, hookUrl } = await startOnFake("s3cret-s3cret-s3cret"));
  fake.addChat({ guid: GROUP, displayName: "Team", participants: [ANN] });
});

afterEach(() => stopOnFake({ fake, running }));

const messages = () => running.events.filter((e): e is InboundMessageEvent => e.type === "message");
const download = (attachment: Attachment, maxBytes = 1024 * 1024) =>
  running.instance.download?.(attachment, { maxBytes }) ?? Promise.reject(new Error("no download"));
const bytesOf = async (attachment: Attachment) => {
  const got = await download(attachment);
  return { mime: got.mime, bytes: await collectBytes(got.stream, 1024 * 1024, "test") };
};
/** The error a promise rejects with. */
const failure = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("iMessage inbound media: attachments of the server's webhooks (fixtures/SOURCES.md)", () => {
  it("a photo the Mac converted from HEIC and a PDF, with what was typed: one message, its files in order", async () => {
    expect(await fake.deliver(await fixture("photo-and-file"), hookUrl)).toEqual([200]);
    const [message] = messages();
    expect(message?.text).toBe("the menu and a photo of the place");
    expect(message?.attachments).toEqual([
      // Converted on download: its type and size come with the bytes, not from the HEIC's totalBytes.
      {
        kind: "image",
        filename: "IMG_5045.heic.jpeg",
        width: 3024,
        height: 4032,
        source: { guid: "AT_0_6A1F0C2E-5B7D-4E11-9C3A-PHOTOANDFILE" },
      },
      {
        kind: "file",
        mime: "application/pdf",
        size: 48213,
        filename: "Menu.pdf",
        source: { guid: "AT_1_6A1F0C2E-5B7D-4E11-9C3A-PHOTOANDFILE" },
      },
    ]);
  });

  it("an audio message (uti com.apple.coreaudio-format) is a voice note with its duration, its text empty", async () => {
    await fake.deliver(await fixture("audio-message"), hookUrl);
    expect(messages().map((m) => [m.text, m.attachments])).toEqual([
      [
        "",
        [
          {
            kind: "voice",
            filename: "Audio Message.mp3.mp3",
            durationMs: 3200,
            source: { guid: "AT_0_0E7C61B4-90AB-4F3C-8D2E-AUDIOMESSAGE" },
          },
        ],
      ],
    ]);
  });

  it("an audio message the Mac had not converted yet (audio/x-caf, .caf) is a voice note too", async () => {
    const hook = await fixture("audio-message");
    const [file] = hook.data.attachments as Record<string, unknown>[];
    const raw = { ...file, mimeType: "audio/x-caf", transferName: "Audio Message.caf", metadata: undefined };
    await fake.deliver({ ...hook, data: { ...hook.data, attachments: [raw] } }, hookUrl);
    expect(messages()[0]?.attachments).toEqual([
      { kind: "voice", filename: "Audio Message.caf", source: { guid: "AT_0_0E7C61B4-90AB-4F3C-8D2E-AUDIOMESSAGE" } },
    ]);
  });

  it("a sticker placed on the bot's message is a message with the sticker, answering that message", async () => {
    await fake.deliver(await fixture("own-echo"), hookUrl);
    await fake.deliver(await fixture("sticker"), hookUrl);
    expect(messages()).toEqual([
      expect.objectContaining({
        eventId: "message:9B3D2A17-6C4E-4B8F-A1D0-STICKERROW01",
        text: "",
        attachments: [
          {
            kind: "sticker",
            mime: "image/png",
            size: 20481,
            filename: "sticker.png",
            width: 408,
            height: 408,
            source: { guid: "AT_0_9B3D2A17-6C4E-4B8F-A1D0-STICKERROW01" },
          },
        ],
        replyTo: { messageId: "BOT-SENT-GUID-0001", fromBot: true },
      }),
    ]);
    expect(running.events.filter((e) => e.type === "reaction")).toEqual([]);
  });

  it("a link's preview data (pluginPayloadAttachment) are no attachments: the link is text", async () => {
    await fake.deliver(await fixture("link-preview"), hookUrl);
    expect(messages().map((m) => [m.text, m.attachments])).toEqual([["https://example.com/menu", undefined]]);
  });
});

describe("iMessage download: GET /api/v1/attachment/:guid/download on the configured server", () => {
  it("a HEIC photo comes as the JPEG the server converts it to; the request names the password and force=false", async () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
    const heic = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63]);
    const hook = fake.userSendsMedia({
      chatGuid: GROUP,
      from: ANN,
      files: [
        {
          bytes: heic,
          transferName: "IMG_0001.heic",
          mimeType: "image/heic",
          converted: { bytes: jpeg, mimeType: "image/jpeg", transferName: "IMG_0001.heic.jpeg" },
        },
      ],
    });
    await fake.deliver(hook, hookUrl);
    const [attachment] = messages()[0]?.attachments ?? [];
    expect(attachment).toMatchObject({ kind: "image", filename: "IMG_0001.heic.jpeg" });
    expect(await bytesOf(attachment as Attachment)).toEqual({ mime: "image/jpeg", bytes: jpeg });
    const [request] = fake.server.requestsTo("GET", "/api/v1/attachment/:guid/download");
    expect(request?.path).toBe(`/api/v1/attachment/${hook.attachments[0]}/download`);
    expect(request?.query).toEqual({ force: "false", password: PASSWORD });
  });

  it("a HEIC the server could not convert comes as it is (image/heic), for the gateway to name in a line", async () => {
    const heic = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63]);
    const files = [{ bytes: heic, transferName: "IMG_0002.HEIC", mimeType: "image/heic" }];
    await fake.deliver(fake.userSendsMedia({ chatGuid: GROUP, from: ANN, files }), hookUrl);
    const [attachment] = messages()[0]?.attachments ?? [];
    expect(attachment).not.toHaveProperty("mime");
    expect(await bytesOf(attachment as Attachment)).toEqual({ mime: "image/heic", bytes: heic });
  });

  it("a file larger than maxBytes: its stated size fails before any request, a longer body at the cap", async () => {
    const big = new Uint8Array(300_000).fill(7);
    await fake.deliver(
      fake.userSendsMedia({ chatGuid: GROUP, from: ANN, files: [{ bytes: big, transferName: "big.bin" }] }),
      hookUrl,
    );
    const [attachment] = messages()[0]?.attachments ?? [];
    expect(attachment?.size).toBe(300_000);
    const early = await failure(download(attachment as Attachment, 1000));
    expect(isChorusError(early) && early.code).toBe("E_TOO_LARGE");
    expect(fake.server.requestsTo("GET", "/api/v1/attachment/:guid/download")).toEqual([]);
    // Without a stated size the server's chunked body is cut at the cap.
    const { size: _size, ...unsized } = attachment as Attachment;
    const got = await download(unsized, 1000);
    const late = await failure(collectBytes(got.stream, 10_000_000, "test"));
    // (That it stops reading there, with a body too large to sit in socket buffers: the contract's cap case.)
    expect(isChorusError(late) && late.code).toBe("E_TOO_LARGE");
  });

  it("an attachment the server does not know is E_MESSAGE_NOT_FOUND in its words; no error names the password or URL", async () => {
    const gone = await failure(download({ kind: "image", source: { guid: "AT_0_NOT-THERE" } }));
    expect(gone).toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    expect((gone as Error).message).toContain("Attachment does not exist!");
    fake.state.attachments.clear();
    await fake.close();
    const down = await failure(download({ kind: "image", source: { guid: "AT_0_ANY" } }));
    expect(down).toMatchObject({ code: "E_PLATFORM", retryable: true });
    for (const error of [gone, down]) {
      expect(
        JSON.stringify({ message: (error as Error).message, details: (error as { details?: unknown }).details }),
      ).not.toMatch(new RegExp(`${PASSWORD}|password=|/api/v1/attachment`, "u"));
    }
  });

  it("an attachment without a GUID cannot be downloaded: E_INVALID_INPUT before any request", async () => {
    expect(await failure(download({ kind: "file" }))).toMatchObject({ code: "E_INVALID_INPUT" });
    expect(fake.server.requestsTo("GET", "/api/v1/attachment/:guid/download")).toEqual([]);
  });
});
