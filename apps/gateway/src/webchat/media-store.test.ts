import { join } from "node:path";
import { collectBytes } from "@chorus/channel-kit";
import { FileStore } from "@chorus/channel-kit/state";
import type { Attachment, InboundMessageEvent } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { CHUNK_BYTES, type DbMediaStore } from "../media/index.js";
import { freshPostgresDatabase } from "../testing/index.js";
import type { WebchatHub } from "./hub.js";
import { WebchatMedia } from "./media-store.js";
import { createWebchatPlugin } from "./plugin.js";
import { WebchatSite } from "./site.js";
import { type TestMediaStore, tempDir, testMediaStore, uploadOverHttp } from "./support.test.util.js";

const TOKEN = "media-store-token-0123456789";
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** `size` bytes that differ from one position to the next. */
const pattern = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + (i >> 8)) % 256);

async function read(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return collectBytes(stream, 64 * 1024 * 1024, "test");
}

describe("the webchat's media in the gateway's media store, on PostgreSQL (chunks in the database)", () => {
  let opened: TestMediaStore;
  const url = freshPostgresDatabase("webchat_media");

  it("reads a range across the store's chunks, counting only what it read", async () => {
    opened = await testMediaStore({ config: { backend: "postgres", url: await url } });
    cleanups.push(() => opened.close());
    const media = new WebchatMedia(opened.store);
    const bytes = pattern(2 * CHUNK_BYTES + 1000);
    const { mediaId } = await media.put(new Blob([bytes]).stream(), { maxBytes: bytes.byteLength, filename: "a.bin" });
    const start = CHUNK_BYTES - 10;
    const end = CHUNK_BYTES + 20;
    expect(await read(await media.open(mediaId, { start, end }))).toEqual(bytes.subarray(start, end + 1));
    // It stops at the range's end: the last chunk is never read.
    expect(media.bytesRead).toBeLessThanOrEqual(2 * CHUNK_BYTES);
    expect(await read(await media.open(mediaId))).toEqual(bytes);
    expect(await read(await media.open(mediaId, { start: bytes.byteLength - 5 }))).toEqual(bytes.subarray(-5));
  });

  it("a medium uploaded through one gateway's webchat is served and downloaded by another's once the webchat moved there", async () => {
    const { dir, cleanup } = await tempDir("media-moved");
    cleanups.push(cleanup);
    // One database, two gateways: each its own connection and its own state dir; the channel's store is shared.
    const shared = new FileStore({ dir: join(dir, "shared-store") });
    const first = opened.store;
    const second: DbMediaStore = await opened.another();
    const bytes = pattern(CHUNK_BYTES + 12_345);

    const siteA = new WebchatSite({ botName: "Chorus" });
    const a: RunningChannel = await startChannel(createWebchatPlugin(siteA, { media: first }), {
      config: {},
      stateDir: join(dir, "a"),
      store: shared,
    });
    siteA.useToken(TOKEN);
    const hubA = siteA.hub as WebchatHub;
    const ada = hubA.identify("Ada");
    hubA.join("lobby", ada.id);
    const answer = await uploadOverHttp(a.hooksUrl, TOKEN, { bytes, filename: "report.bin", mime: "application/zip" });
    if (!answer.ok) throw new Error(answer.error.message);
    const posted = hubA.post("lobby", ada.id, "the report", { media: hubA.uploads?.claim([answer.id]) ?? [] });
    const event = (await a.waitForEvent(
      (e) => e.type === "message" && e.ref.messageId === posted.id,
    )) as InboundMessageEvent;
    await a.stop();

    const siteB = new WebchatSite({ botName: "Chorus" });
    const b = await startChannel(createWebchatPlugin(siteB, { media: second }), {
      config: {},
      stateDir: join(dir, "b"),
      store: shared,
    });
    cleanups.push(() => b.stop());
    siteB.useToken(TOKEN);
    const medium = (siteB.hub as WebchatHub).message(posted.id)?.attachments?.[0];
    expect(medium?.id).toBe(answer.id);
    const served = await fetch(`${b.hooksUrl}${medium?.url}&token=${TOKEN}`);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    const got = await b.instance.download?.(event.attachments?.[0] as Attachment, { maxBytes: bytes.byteLength });
    expect(got?.size).toBe(bytes.byteLength);
    expect(await read(got?.stream as ReadableStream<Uint8Array>)).toEqual(bytes);
  });
});
