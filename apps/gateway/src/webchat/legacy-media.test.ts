import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { collectBytes } from "@chorus/channel-kit";
import { FileStore } from "@chorus/channel-kit/state";
import type { Attachment } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WebchatHub } from "./hub.js";
import { LEGACY_MEDIA_DIR } from "./legacy-media.js";
import { createWebchatPlugin } from "./plugin.js";
import { WebchatSite } from "./site.js";
import { json, messageKey, roomKey, userKey } from "./stored.js";
import { type TestMediaStore, tempDir, testMediaStore } from "./support.test.util.js";

const TOKEN = "legacy-media-token-0123456789";
const KEPT = "wm_KeptKeptKeptKeptKeptKe";
const LOST = "wm_LostLostLostLostLostLo";
const STRAY = "wm_StrayStrayStrayStraySt";
const PHOTO = new Uint8Array(Array.from({ length: 200_000 }, (_, i) => (i * 7) % 256));

let dir: string;
let cleanup: () => Promise<void>;
let opened: TestMediaStore;
let store: FileStore;
let running: RunningChannel | undefined;
const site = new WebchatSite({ botName: "Chorus" });

/** What a version before the media store left: messages naming `wm_…` media, and their files in `<stateDir>/media`. */
async function olderVersion() {
  await store.set(userKey("u_ada"), { name: "Ada" });
  await store.set(roomKey("lobby"), { members: ["u_ada"] });
  const medium = (id: string, filename: string, size: number) => ({
    id,
    kind: "image",
    mime: "image/png",
    filename,
    size,
  });
  const message = (seq: number, media?: object[]) =>
    json({
      id: `m_${seq}`,
      senderId: "u_ada",
      senderName: "Ada",
      text: `message ${seq}`,
      ts: seq,
      mentions: [],
      ...(media ? { media } : {}),
    });
  await store.set(messageKey("lobby", 1), message(1, [medium(KEPT, "photo.png", PHOTO.byteLength)]));
  await store.set(messageKey("lobby", 2), message(2, [medium(LOST, "lost.png", 3)]));
  await store.set(messageKey("lobby", 3), message(3));
  const media = join(dir, LEGACY_MEDIA_DIR);
  await mkdir(media, { recursive: true });
  await writeFile(join(media, KEPT), PHOTO);
  await writeFile(join(media, STRAY), "nobody shows me");
  await writeFile(join(media, `${STRAY}.part`), "half");
}

async function start(): Promise<WebchatHub> {
  running = await startChannel(createWebchatPlugin(site, { media: opened.store }), {
    config: {},
    stateDir: dir,
    store,
  });
  site.useToken(TOKEN);
  return site.hub as WebchatHub;
}

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("legacy-media"));
  opened = await testMediaStore();
  store = new FileStore({ dir: join(dir, ".chorus-store") });
  running = undefined;
});
afterEach(async () => {
  await running?.stop();
  await opened.close();
  await cleanup();
});

describe("media an older version kept as files", () => {
  it("are moved into the media store at start: the messages keep their ids and name their bytes in the store, the files are gone, once", async () => {
    await olderVersion();
    const hub = await start();
    const [photo] = hub.message("m_1")?.attachments ?? [];
    expect(photo).toMatchObject({
      id: KEPT,
      filename: "photo.png",
      size: PHOTO.byteLength,
      url: `/hooks/webchat/media?id=${KEPT}`,
    });
    const mediaId = hub.medium(KEPT)?.mediaId as string;
    expect(mediaId).toMatch(/^med_[A-Za-z0-9_-]{22}$/);
    expect(await collectBytes((await opened.store.open(mediaId)).stream, 1e6, "test")).toEqual(PHOTO);
    // Served to the page from the store, byte for byte.
    const served = await fetch(`${running?.hooksUrl}${photo?.url}&token=${TOKEN}`);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PHOTO);
    // Its file was not there any more: the message keeps it, shown as no longer kept.
    const [lost] = hub.message("m_2")?.attachments ?? [];
    expect(lost?.id).toBe(LOST);
    expect(hub.medium(LOST)?.mediaId).toBeUndefined();
    expect((await fetch(`${running?.hooksUrl}${lost?.url}&token=${TOKEN}`)).status).toBe(404);
    expect(hub.message("m_3")?.text).toBe("message 3");
    // The directory went, with the file no message named and the unfinished upload.
    expect(await readdir(dir)).not.toContain(LEGACY_MEDIA_DIR);
    expect(await opened.count()).toBe(1);

    // An inbox row written before the upgrade names the medium's id: download finds its bytes in the store.
    const download = running?.instance.download?.bind(running.instance);
    const before: Attachment = { kind: "image", mime: "image/png", filename: "photo.png", source: KEPT };
    const got = await download?.(before, { maxBytes: 1e6 });
    expect(await collectBytes(got?.stream as ReadableStream<Uint8Array>, 1e6, "test")).toEqual(PHOTO);
    const gone = download?.({ kind: "image", filename: "lost.png", source: LOST }, { maxBytes: 1e6 });
    await expect(gone).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });

    // Not again at the next start.
    await running?.restart();
    expect((site.hub as WebchatHub).medium(KEPT)?.mediaId).toBe(mediaId);
    expect(await opened.count()).toBe(1);
  });

  it("leave their files where they are when the store fails, and the next start imports them", async () => {
    await olderVersion();
    const broken = await testMediaStore();
    await broken.close();
    await expect(
      startChannel(createWebchatPlugin(site, { media: broken.store }), { config: {}, stateDir: dir, store }),
    ).rejects.toThrow();
    expect((await readdir(join(dir, LEGACY_MEDIA_DIR))).sort()).toEqual([KEPT, STRAY, `${STRAY}.part`].sort());
    const hub = await start();
    expect(hub.medium(KEPT)?.mediaId).toMatch(/^med_/);
    expect(await readdir(dir)).not.toContain(LEGACY_MEDIA_DIR);
  });
});
