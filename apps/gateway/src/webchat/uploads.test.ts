import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { ChorusError } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebchatMedia } from "./media-store.js";
import { UploadStaging } from "./staging.js";
import { type TestMediaStore, tempDir, testMediaStore } from "./support.test.util.js";
import { Uploads } from "./uploads.js";

const MiB = 1024 * 1024;
let cleanup: () => Promise<void>;
let staging: UploadStaging;
let opened: TestMediaStore;
let media: WebchatMedia;

beforeEach(async () => {
  let dir: string;
  ({ dir, cleanup } = await tempDir("uploads"));
  staging = new UploadStaging(join(dir, "uploads"));
  await staging.ready();
  opened = await testMediaStore();
  media = new WebchatMedia(opened.store);
});
afterEach(async () => {
  await opened.close();
  await cleanup();
});

/** A stream of `chunks`, each produced only when read; `onPull(n)` runs before the n-th chunk is handed out. */
function lazyStream(chunks: Uint8Array[], onPull: (n: number) => Promise<void> | void = () => {}) {
  let n = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (n === chunks.length) return controller.close();
        await onPull(n);
        controller.enqueue(chunks[n++] as Uint8Array);
      },
    },
    { highWaterMark: 0 },
  );
}

async function stored(mediaId: string): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of await media.open(mediaId)) parts.push(chunk);
  return Buffer.concat(parts);
}

const bytes = (size: number, seed = 1) => Uint8Array.from({ length: size }, (_, i) => (i * seed) % 251);
const refusal = async (promise: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    if (error instanceof ChorusError) return error;
    throw error;
  }
  throw new Error("expected a ChorusError");
};

describe("uploads from the page", () => {
  it("refuses a file over 25 MiB when it is announced, naming it and the limit, before a byte is sent", async () => {
    const uploads = new Uploads(staging, media);
    const error = await refusal(uploads.begin({ filename: "holiday.mov", mime: "video/quicktime", size: 30 * MiB }));
    expect(error.code).toBe("E_TOO_LARGE");
    expect(error.message).toBe('"holiday.mov" is 30 MB; the webchat takes media up to 25 MB.');
    expect(error.details).toEqual({ size: 30 * MiB, limit: 25 * MiB });
    const justOver = await refusal(uploads.begin({ filename: "a.bin", size: 25 * MiB + 1 }));
    expect(justOver.message).toBe('"a.bin" is over 25 MB; the webchat takes media up to 25 MB.');
    expect(await readdir(staging.dir)).toEqual([]);
    expect(await opened.count()).toBe(0);
  });

  it("stages a piece as it arrives (what is read and not yet on disk stays small), then puts the whole file in the media store", async () => {
    const uploads = new Uploads(staging, media);
    const chunk = 64 * 1024;
    const chunks = Array.from({ length: 128 }, (_, i) => bytes(chunk, i + 2));
    const { medium } = await uploads.begin({ filename: "clip.mp4", mime: "video/mp4", size: 128 * chunk });
    expect(medium.id).toMatch(/^wm_/);
    const part = join(staging.dir, `${medium.id}.part`);
    let lag = 0;
    // Before each chunk is produced: how much of what was read is not in the file yet.
    const body = lazyStream(chunks, async (n) => {
      const onDisk = await stat(part).then(
        (info) => info.size,
        () => 0,
      );
      lag = Math.max(lag, n * chunk - onDisk);
    });
    expect(await uploads.append(medium.id, 0, body)).toEqual({ received: 8 * MiB, complete: true });
    expect(lag).toBeLessThanOrEqual(4 * chunk);
    // Staged no more: in the store, under a store id of its own; the page still knows it by the upload's.
    expect(await readdir(staging.dir)).toEqual([]);
    const [claimed] = uploads.claim([medium.id]);
    expect(claimed).toMatchObject({
      id: medium.id,
      kind: "video",
      mime: "video/mp4",
      filename: "clip.mp4",
      size: 8 * MiB,
    });
    expect(claimed?.mediaId).toMatch(/^med_[A-Za-z0-9_-]{22}$/);
    const written = await stored(claimed?.mediaId as string);
    expect(written.byteLength).toBe(8 * MiB);
    expect(new Uint8Array(written.subarray(100 * chunk, 101 * chunk))).toEqual(chunks[100]);
    expect((await opened.store.get(claimed?.mediaId as string))?.filename).toBe("clip.mp4");
  });

  it("takes the pieces in order and says where to go on after a piece that does not follow", async () => {
    const uploads = new Uploads(staging, media);
    const { medium } = await uploads.begin({ filename: "a.pdf", mime: "application/pdf", size: 10 });
    expect(await uploads.append(medium.id, 0, lazyStream([bytes(4)]))).toEqual({ received: 4, complete: false });
    expect(await opened.count()).toBe(0);
    const error = await refusal(uploads.append(medium.id, 8, lazyStream([bytes(2)])));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.details).toEqual({ received: 4 });
    expect(await uploads.append(medium.id, 4, lazyStream([bytes(6, 7)]))).toEqual({ received: 10, complete: true });
    const [claimed] = uploads.claim([medium.id]);
    expect(new Uint8Array(await stored(claimed?.mediaId as string))).toEqual(
      Uint8Array.from([...bytes(4), ...bytes(6, 7)]),
    );
  });

  it("drops an upload whose pieces carry more than it announced (E_TOO_LARGE), keeping nothing", async () => {
    const uploads = new Uploads(staging, media);
    const { medium } = await uploads.begin({ filename: "liar.png", mime: "image/png", size: 100 });
    const error = await refusal(uploads.append(medium.id, 0, lazyStream([bytes(64), bytes(64)])));
    expect(error.code).toBe("E_TOO_LARGE");
    expect(error.message).toBe('"liar.png" has more than the 100 bytes announced; the upload was dropped.');
    expect(await readdir(staging.dir)).toEqual([]);
    expect(await opened.count()).toBe(0);
    expect((await refusal(uploads.append(medium.id, 0, lazyStream([bytes(1)])))).code).toBe("E_MESSAGE_NOT_FOUND");
  });

  it("gives a message its complete uploads once, and takes back those of a message that could not be posted", async () => {
    const uploads = new Uploads(staging, media);
    const done = (await uploads.begin({ filename: "a.txt", mime: "text/plain", size: 3 })).medium;
    await uploads.append(done.id, 0, lazyStream([bytes(3)]));
    const half = (await uploads.begin({ filename: "b.txt", mime: "text/plain", size: 3 })).medium;
    await uploads.append(half.id, 0, lazyStream([bytes(1)]));

    expect((await refusal(() => uploads.claim([done.id, half.id]))).message).toBe('"b.txt" is still uploading');
    expect(uploads.has(done.id)).toBe(true);
    const claimed = uploads.claim([done.id, done.id]);
    expect(claimed.map((m) => m.filename)).toEqual(["a.txt"]);
    expect((await refusal(() => uploads.claim([done.id]))).message).toBe(`there is no finished upload ${done.id}`);
    uploads.release(claimed);
    expect(uploads.claim([done.id])).toEqual(claimed);
  });

  it("stores an empty file at once and keeps the picture size the page gave", async () => {
    const uploads = new Uploads(staging, media);
    const empty = await uploads.begin({ filename: "empty.txt", mime: "text/plain", size: 0 });
    expect(empty.complete).toBe(true);
    const [claimed] = uploads.claim([empty.medium.id]);
    expect(await media.size(claimed?.mediaId as string)).toBe(0);
    const photo = await uploads.begin({
      filename: "../../etc/p\u0000.jpg",
      mime: "IMAGE/JPEG; x=1",
      size: 1,
      width: 4,
      height: 3,
    });
    expect(photo.medium).toMatchObject({ kind: "image", mime: "image/jpeg", filename: "p_.jpg", width: 4, height: 3 });
    const svg = await uploads.begin({ filename: "x.svg", mime: "image/svg+xml", size: 1 });
    expect(svg.medium.kind).toBe("file");
  });

  it("drops uploads nobody touched for an hour: staged pieces and finished files never sent", async () => {
    let now = 0;
    const uploads = new Uploads(staging, media, { now: () => now });
    const old = (await uploads.begin({ filename: "old.txt", size: 4 })).medium;
    await uploads.append(old.id, 0, lazyStream([bytes(2)]));
    const unsent = (await uploads.begin({ filename: "unsent.txt", size: 2 })).medium;
    await uploads.append(unsent.id, 0, lazyStream([bytes(2, 3)]));
    expect(await opened.count()).toBe(1);
    now = 3_600_001;
    const fresh = (await uploads.begin({ filename: "new.txt", size: 4 })).medium;
    expect(uploads.has(old.id)).toBe(false);
    expect(uploads.has(unsent.id)).toBe(false);
    expect(uploads.has(fresh.id)).toBe(true);
    expect(await readdir(staging.dir)).toEqual([]);
    expect(await opened.count()).toBe(0);
  });

  it("refuses more uploads than it keeps waiting at once", async () => {
    const uploads = new Uploads(staging, media, { maxPending: 2 });
    await uploads.begin({ filename: "1", size: 1 });
    await uploads.begin({ filename: "2", size: 1 });
    const error = await refusal(uploads.begin({ filename: "3", size: 1 }));
    expect(error.message).toBe("2 uploads are waiting to be sent already");
  });
});
