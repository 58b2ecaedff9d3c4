import { capStream, collectBytes, streamOf } from "@chorus/channel-kit";
import type { ChannelInstance, ChannelPlugin, OutboundMedium } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { createMemoryChannel, type MemoryChannelOptions, type MemoryConfig } from "../memory/index.js";
import { memoryFixture } from "./memory-fixture.test-util.js";
import { runChannelContract } from "./run.js";

/** The memory channel with its instance changed by `change`. */
function variant(
  change: (instance: ChannelInstance) => Partial<ChannelInstance>,
  options: MemoryChannelOptions = {},
): ChannelPlugin<MemoryConfig> {
  const base = createMemoryChannel(options);
  return {
    ...base,
    create: async (ctx) => {
      const instance = await base.create(ctx);
      return { ...instance, ...change(instance) };
    },
  };
}

/** A plugin whose `send` changes each medium with `medium` before sending it. */
const sendingAltered = (medium: (m: OutboundMedium) => OutboundMedium) =>
  variant((instance) => ({
    send: (conversation, message) =>
      instance.send(conversation, { ...message, ...(message.media ? { media: message.media.map(medium) } : {}) }),
  }));

const results = (plugin: ChannelPlugin<MemoryConfig>) =>
  runChannelContract({ plugin, setup: () => memoryFixture(), stepTimeoutMs: 10_000 });

const failed = async (plugin: ChannelPlugin<MemoryConfig>) => (await results(plugin)).filter((r) => !r.ok);

const MB = 1024 * 1024;

describe("the media cases catch plugins whose media flags lie", () => {
  it("fails a plugin that declares voice but uploads voice notes as files, naming the kind", async () => {
    const failures = await failed(sendingAltered((m) => (m.kind === "voice" ? { ...m, kind: "file" } : m)));
    expect(failures.map((f) => f.name)).toEqual(["media: a voice note sent arrives as voice, byte for byte"]);
    expect(failures[0]?.message).toBe(
      'media.send lists voice: a voice note sent: the platform should show it as voice, it shows a file ("voice.ogg", 687 bytes)',
    );
  }, 60_000);

  it("fails a plugin that drops an image's bytes, saying what the platform holds", async () => {
    const failures = await failed(
      sendingAltered((m) =>
        m.kind === "image" && m.size < MB ? { ...m, size: 8, open: () => streamOf(new Uint8Array(8)) } : m,
      ),
    );
    expect(failures.map((f) => f.name)).toEqual(["media: an image sent arrives as image, byte for byte"]);
    expect(failures[0]?.message).toMatch(
      /^media.send lists image: an image sent: the platform should hold its \d+ bytes unchanged, it holds 8 bytes/,
    );
  }, 60_000);

  it("fails a plugin that cuts an over-limit medium short instead of refusing it", async () => {
    const truncating = sendingAltered((m) =>
      m.size > 5 * MB ? { ...m, size: 5 * MB, open: () => firstBytes(m.open(), 5 * MB) } : m,
    );
    const failures = await failed(truncating);
    expect(failures.map((f) => f.name)).toEqual([
      "media: send refuses an image over the limit handed to it directly (E_TOO_LARGE) and sends nothing",
    ]);
    expect(failures[0]?.message).toContain("expected E_TOO_LARGE, but it succeeded");
  }, 60_000);

  it("fails a plugin whose download reads the whole medium before applying the cap", async () => {
    const buffering = variant((instance) => ({
      async download(attachment, options) {
        const whole = await instance.download?.(attachment, { maxBytes: 1024 * MB });
        const bytes = await collectBytes(whole?.stream ?? streamOf(new Uint8Array()), 1024 * MB, "the medium");
        return { stream: capStream(streamOf(bytes), options.maxBytes, "the medium") };
      },
    }));
    const failures = await failed(buffering);
    expect(failures.map((f) => f.name)).toEqual([
      "media: a download past its cap fails with E_TOO_LARGE and stops, without buffering the medium",
    ]);
    expect(failures[0]?.message).toBe(
      "a download capped at 64 KB must stop reading there: the platform served 16 MB of the 16 MB medium (it was read whole, then capped)",
    );
  }, 60_000);

  it("fails a plugin that emits the voice notes people send as files, naming the kind", async () => {
    const base = createMemoryChannel();
    const mislabelling: ChannelPlugin<MemoryConfig> = {
      ...base,
      create: (ctx) =>
        base.create({
          ...ctx,
          emit: (event) =>
            ctx.emit(
              event.type === "message" && event.attachments
                ? {
                    ...event,
                    attachments: event.attachments.map((a) => (a.kind === "voice" ? { ...a, kind: "file" } : a)),
                  }
                : event,
            ),
        }),
    };
    const failures = await failed(mislabelling);
    expect(failures.map((f) => f.name)).toEqual([
      "media: a voice note someone sends arrives as one voice attachment, and download gives its bytes",
    ]);
    expect(failures[0]?.message).toBe(
      "media.receive lists voice: a voice note someone sent should arrive as one voice attachment, the plugin emitted a file attachment",
    );
  }, 60_000);

  it("fails a plugin that declares no media but has a download", async () => {
    const downloading = variant(
      () => ({
        download: async () => ({ stream: streamOf(new Uint8Array(1)) }),
      }),
      { media: false },
    );
    const failures = await failed(downloading);
    expect(failures.map((f) => f.name)).toEqual(["media: a channel that declares no media has no download"]);
  }, 60_000);
});

describe("the media cases follow the declared flags", () => {
  it("a channel without media gets the one no-media case, and passes it", async () => {
    const all = await results(createMemoryChannel({ media: false }));
    expect(all.filter((r) => r.name.startsWith("media:")).map((r) => r.name)).toEqual([
      "media: a channel that declares no media has no download",
    ]);
    expect(all.filter((r) => !r.ok)).toEqual([]);
  }, 60_000);

  it("a channel sending images and pins only: stickers fall back to images; what the plan refuses (a voice note, too large) gets no plugin case", async () => {
    const plugin = createMemoryChannel({ media: { send: ["image", "location"], receive: ["image", "location"] } });
    const all = await results(plugin);
    expect(all.filter((r) => r.name.startsWith("media:")).map((r) => r.name)).toEqual([
      "media: the declared media capabilities are well-formed, with download where media.receive has kinds with bytes",
      "media: an image sent arrives as image, byte for byte",
      "media: a location sent arrives as a pin with the same coordinates",
      "media: a sticker, which the channel cannot send, falls back to image (rule 3), byte for byte",
      "media: send refuses an image over the limit handed to it directly (E_TOO_LARGE) and sends nothing",
      "media: an image someone sends arrives as one image attachment, and download gives its bytes",
      "media: a location someone shares arrives as one location attachment carrying its data",
      "media: a download past its cap fails with E_TOO_LARGE and stops, without buffering the medium",
    ]);
    expect(all.filter((r) => !r.ok)).toEqual([]);
  }, 60_000);
});

/** The first `count` bytes of `stream`, then its end. */
function firstBytes(stream: ReadableStream<Uint8Array>, count: number): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let left = count;
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done || left <= 0) {
        await reader.cancel();
        return controller.close();
      }
      const chunk = value.subarray(0, left);
      left -= chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}
