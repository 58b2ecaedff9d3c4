import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { collectBytes, streamOf } from "@chorus/channel-kit";
import { type Attachment, ChorusError, type InboundMessageEvent, type OutboundMedium } from "@chorus/core";
import { type RunningChannel, sampleMedium, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WebchatHub } from "./hub.js";
import { createWebchatPlugin } from "./plugin.js";
import { WebchatSite } from "./site.js";
import { type TestMediaStore, tempDir, testMediaStore } from "./support.test.util.js";

const MiB = 1024 * 1024;
let site: WebchatSite;
let running: RunningChannel;
let dir: string;
let cleanup: () => Promise<void>;
let adaId: string | undefined;
let opened: TestMediaStore;
let now = Date.now();

const hub = (): WebchatHub => site.hub as WebchatHub;
const DAY = 86_400_000;

async function start(config: object = {}) {
  running = await startChannel(createWebchatPlugin(site, { media: opened.store }), { config, stateDir: dir });
}

/** The bytes the media store keeps under `mediaId`. */
async function storedBytes(mediaId: string): Promise<Uint8Array> {
  const { stream } = await opened.store.open(mediaId);
  return collectBytes(stream, 30 * MiB, "test");
}

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("media"));
  adaId = undefined;
  now = Date.now();
  opened = await testMediaStore({ retentionMs: 7 * DAY, now: () => now });
  site = new WebchatSite({ botName: "Chorus" });
  await start();
});
afterEach(async () => {
  await running.stop();
  await opened.close();
  await cleanup();
});

/** Ada uploads `bytes` (through the hub's uploads, as the routes do) and posts them in her direct room. */
async function adaSends(files: { bytes: Uint8Array; filename: string; mime: string }[], text = "") {
  const ada = hub().identify("Ada", hub().user(adaId ?? "") ? adaId : undefined);
  adaId = ada.id;
  const uploads = hub().uploads;
  if (!uploads) throw new Error("the hub keeps no uploads");
  const ids: string[] = [];
  for (const file of files) {
    const { medium } = await uploads.begin({ filename: file.filename, mime: file.mime, size: file.bytes.byteLength });
    await uploads.append(medium.id, 0, streamOf(file.bytes));
    ids.push(medium.id);
  }
  const media = uploads.claim(ids);
  const posted = hub().post(`dm:${ada.id}`, ada.id, text, { media });
  const event = (await running.waitForEvent(
    (e) => e.type === "message" && e.ref.messageId === posted.id,
  )) as InboundMessageEvent;
  return { ada, posted, event, mediaIds: media.map((medium) => medium.mediaId as string) };
}

/** A medium to send whose bytes are `bytes`, counting how often it was opened. */
function outbound(kind: OutboundMedium["kind"], bytes: Uint8Array, extra: Partial<OutboundMedium> = {}) {
  const medium = { opened: 0 };
  const sample = sampleMedium(kind);
  return Object.assign(medium, {
    kind,
    mime: sample.mime,
    filename: sample.filename,
    size: bytes.byteLength,
    open: () => {
      medium.opened++;
      return streamOf(bytes);
    },
    ...extra,
  });
}

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ChorusError) return error;
    throw error;
  }
  throw new Error("expected a ChorusError");
};

describe("webchat media people send", () => {
  it("emit one message event with an attachment each (source: the medium's id), and download gives the bytes from the store", async () => {
    const png = sampleMedium("image");
    const pdf = sampleMedium("file");
    const { event } = await adaSends([
      { ...png, filename: "photo.png" },
      { ...pdf, filename: "report.pdf" },
    ]);
    expect(event.text).toBe("");
    expect(event.attachments).toEqual([
      {
        kind: "image",
        mime: "image/png",
        size: png.bytes.byteLength,
        filename: "photo.png",
        source: expect.stringMatching(/^wm_/),
      },
      {
        kind: "file",
        mime: "application/pdf",
        size: pdf.bytes.byteLength,
        filename: "report.pdf",
        source: expect.stringMatching(/^wm_/),
      },
    ]);
    const download = running.instance.download;
    if (!download) throw new Error("no download");
    const got = await download(event.attachments?.[1] as Attachment, { maxBytes: MiB });
    expect(got).toMatchObject({ mime: "application/pdf", size: pdf.bytes.byteLength });
    expect(await collectBytes(got.stream, MiB, "test")).toEqual(pdf.bytes);
  });

  it("a download over its cap fails before a byte is read; a medium past the store's retention is E_MESSAGE_NOT_FOUND", async () => {
    const { event } = await adaSends([
      { bytes: new Uint8Array(300_000), filename: "big.bin", mime: "application/octet-stream" },
    ]);
    const attachment = event.attachments?.[0] as Attachment;
    const download = running.instance.download?.bind(running.instance);
    if (!download) throw new Error("no download");
    const before = hub().uploads?.media.bytesRead;
    const over = await refusal(download(attachment, { maxBytes: 1000 }));
    expect(over.code).toBe("E_TOO_LARGE");
    expect(over.message).toBe('the webchat medium "big.bin" is 293 KB, over 1000 bytes.');
    expect(hub().uploads?.media.bytesRead).toBe(before);

    const aborted = new AbortController();
    aborted.abort(new Error("stopping"));
    await expect(download(attachment, { maxBytes: MiB, signal: aborted.signal })).rejects.toThrow("stopping");

    // The store's retention applies to the webchat's media like to any other.
    now += 8 * DAY;
    expect(await opened.store.prune()).toBe(1);
    const gone = await refusal(download(attachment, { maxBytes: MiB }));
    expect(gone.code).toBe("E_MESSAGE_NOT_FOUND");
    expect(gone.message).toBe('the webchat medium "big.bin" is no longer kept');
    expect(gone.hint).toContain("media.retention");
    const forged = await refusal(download({ kind: "file", source: "../../etc/passwd" }, { maxBytes: MiB }));
    expect(forged.code).toBe("E_INVALID_INPUT");
  });

  it("keeps media with the history: after a restart the message has them, in the store, and no file in the state dir", async () => {
    const png = sampleMedium("image");
    const { ada, posted } = await adaSends([{ ...png, filename: "photo.png" }], "look");
    await running.restart();
    const kept = hub().message(posted.id);
    expect(kept?.text).toBe("look");
    expect(kept?.attachments).toEqual(posted.attachments);
    const id = posted.attachments?.[0]?.id as string;
    expect(hub().messagesIn(`dm:${ada.id}`).at(-1)?.attachments?.[0]?.url).toBe(`/hooks/webchat/media?id=${id}`);
    expect(await storedBytes(hub().medium(id)?.mediaId as string)).toEqual(png.bytes);
    expect(await readdir(dir)).not.toContain("media");
    expect(await readdir(join(dir, "uploads"))).toEqual([]);
  });

  it("deletes the media of messages the room no longer keeps, and uploads left unfinished by a restart", async () => {
    await running.stop();
    await start({ keepMessages: 1 });
    const first = await adaSends([{ bytes: new Uint8Array([1]), filename: "1.txt", mime: "text/plain" }]);
    const uploads = hub().uploads;
    const stray = (await uploads?.begin({ filename: "never.txt", size: 2 }))?.medium.id;
    await uploads?.append(stray as string, 0, streamOf(new Uint8Array([1])));
    expect(await readdir(join(dir, "uploads"))).toEqual([`${stray}.part`]);
    const second = await adaSends([{ bytes: new Uint8Array([2]), filename: "2.txt", mime: "text/plain" }]);
    const [secondId] = second.mediaIds;
    const [firstId] = first.mediaIds;
    await expect.poll(() => opened.store.get(firstId as string)).toBeUndefined();
    await running.restart();
    expect(await readdir(join(dir, "uploads"))).toEqual([]);
    expect(await opened.count()).toBe(1);
    expect(await storedBytes(secondId as string)).toEqual(new Uint8Array([2]));
  });
});

describe("webchat media the bot sends", () => {
  it("stores each medium's bytes and shows them on one message, the captions as its text", async () => {
    const ada = hub().identify("Ada");
    const png = sampleMedium("image");
    const voice = sampleMedium("voice");
    const ref = await running.instance.send(
      { id: `dm:${ada.id}` },
      {
        text: "",
        media: [outbound("image", png.bytes, { caption: "the chart" }), outbound("voice", voice.bytes)],
        location: { latitude: 52.52, longitude: 13.405, name: "Alexanderplatz" },
      },
    );
    const message = hub().message(ref.messageId);
    expect(message?.text).toBe("the chart");
    expect(message?.location).toEqual({ latitude: 52.52, longitude: 13.405, name: "Alexanderplatz" });
    expect(message?.attachments?.map((m) => [m.kind, m.mime, m.filename, m.size])).toEqual([
      ["image", "image/png", png.filename, png.bytes.byteLength],
      ["voice", voice.mime, voice.filename, voice.bytes.byteLength],
    ]);
    const [image, note] = (message?.attachments ?? []).map((m) => hub().medium(m.id)?.mediaId as string);
    expect(await storedBytes(image as string)).toEqual(png.bytes);
    expect(await storedBytes(note as string)).toEqual(voice.bytes);
    expect(await opened.count()).toBe(2);
  });

  it("refuses a medium over 25 MiB before reading it, and sends nothing", async () => {
    const ada = hub().identify("Ada");
    const small = outbound("image", sampleMedium("image").bytes);
    const large = outbound("file", new Uint8Array(1), { size: 25 * MiB + 1, filename: "huge.bin" });
    const error = await refusal(running.instance.send({ id: `dm:${ada.id}` }, { text: "x", media: [small, large] }));
    expect(error.code).toBe("E_TOO_LARGE");
    expect(error.message).toBe('"huge.bin" is over 25 MB; the webchat takes media up to 25 MB.');
    expect(small.opened + large.opened).toBe(0);
    expect(hub().messagesIn(`dm:${ada.id}`)).toEqual([]);
    expect(await opened.count()).toBe(0);
  });

  it("sends nothing and keeps no medium when a medium's bytes fail midway", async () => {
    const ada = hub().identify("Ada");
    const good = outbound("image", sampleMedium("image").bytes);
    const broken = outbound("file", new Uint8Array(10), {
      open: () =>
        new ReadableStream<Uint8Array>({
          pull(controller) {
            controller.error(new ChorusError("E_PLATFORM", "the store went away"));
          },
        }),
    });
    const error = await refusal(running.instance.send({ id: `dm:${ada.id}` }, { text: "", media: [good, broken] }));
    expect(error.message).toBe("the store went away");
    expect(hub().messagesIn(`dm:${ada.id}`)).toEqual([]);
    expect(await opened.count()).toBe(0);
  });
});
