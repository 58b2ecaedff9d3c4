import { createHash, randomBytes } from "node:crypto";
import { readdir, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isChorusError } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StateConfig, StateStore } from "../state/index.js";
import { forceGc, freshPostgresDatabase, openTestState, type TestState } from "../testing/index.js";
import { CHUNK_BYTES, ChunkBlobs } from "./chunk-blobs.js";
import { FileBlobs } from "./file-blobs.js";
import { recordOutboxMedia } from "./outbox-media.js";
import { DbMediaStore } from "./store.js";

const MB = 1024 * 1024;
const DAY = 86_400_000;

/** One suite, two backends: files beside SQLite, chunks in PostgreSQL. */
const BACKENDS: { name: string; config: () => Promise<StateConfig> }[] = [
  { name: "sqlite", config: async () => ({ backend: "sqlite" }) },
  { name: "postgres", config: async () => ({ backend: "postgres", url: await freshPostgresDatabase("media") }) },
];

function streamOf(...parts: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const next = parts.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path)));
    else found.push(path);
  }
  return found;
}

/** A pending outbox row that sends `mediaId` (what retention must keep). */
async function pendingReplyWith(state: StateStore, mediaId: string): Promise<number> {
  return state.db.tx(async (sql) => {
    const id = await state.outbox.add(
      sql,
      { sessionKey: "s", channel: "memory", account: "default", scope: {}, text: "", idempotencyKey: "k" },
      Date.now(),
    );
    await recordOutboxMedia(sql, id, {
      media: [{ mediaId, as: "image", filename: "a.png", mime: "image/png", size: 1 }],
    });
    return id;
  });
}

describe.each(BACKENDS)("the media store on $name", ({ name, config }) => {
  let test: TestState;
  let clock: number;
  let store: DbMediaStore;
  const blobsDir = () => join(test.home, "media", "blobs");
  const chunkCount = async () =>
    Number((await test.state.db.one<{ n: number }>("SELECT count(*) AS n FROM media_chunks"))?.n ?? 0);
  const mediaCount = async () => Number((await test.state.db.one<{ n: number }>("SELECT count(*) AS n FROM media"))?.n);

  beforeEach(async () => {
    test = await openTestState(await config());
    clock = Date.UTC(2026, 0, 1);
    const blobs = name === "postgres" ? new ChunkBlobs(test.state.db) : new FileBlobs(test.state.db, blobsDir());
    store = new DbMediaStore(test.state.db, blobs, { retentionMs: 7 * DAY, now: () => clock });
  });

  afterEach(async () => {
    await test.close();
  });

  it("stores a medium and streams it back byte for byte, its kind and type sniffed from the bytes", async () => {
    const png = sampleMedium("image").bytes;
    const stored = await store.put(streamOf(png.slice(0, 10), png.slice(10)), { maxBytes: MB });
    expect(stored).toMatchObject({ kind: "image", mime: "image/png", size: png.byteLength, filename: "image.png" });
    expect(stored.mediaId).toMatch(/^med_[A-Za-z0-9_-]{22}$/);
    expect(stored.sha256).toBe(createHash("sha256").update(png).digest("hex"));
    expect(await store.get(stored.mediaId)).toEqual(stored);
    const opened = await store.open(stored.mediaId);
    expect(opened.medium).toEqual(stored);
    expect(Buffer.compare(await bytesOf(opened.stream), Buffer.from(png))).toBe(0);
  });

  it("opens a medium from any byte on (a player seeking), the rest exactly", async () => {
    const bytes = new Uint8Array(randomBytes(3 * CHUNK_BYTES + 1000));
    const stored = await store.put(streamOf(bytes), { maxBytes: 4 * CHUNK_BYTES });
    for (const from of [0, 1, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 5, 3 * CHUNK_BYTES, bytes.length - 1]) {
      const { stream } = await store.open(stored.mediaId, from);
      const got = await bytesOf(stream);
      expect(got.byteLength, `from ${from}`).toBe(bytes.length - from);
      expect(Buffer.compare(got, Buffer.from(bytes.subarray(from))), `from ${from}`).toBe(0);
    }
    expect((await bytesOf((await store.open(stored.mediaId, bytes.length)).stream)).byteLength).toBe(0);
  });

  it("another gateway on the same database serves it too", async () => {
    const mp4 = sampleMedium("video").bytes;
    const stored = await store.put(streamOf(mp4), { maxBytes: MB });
    const other = await test.reopen();
    const blobs = name === "postgres" ? new ChunkBlobs(other.db) : new FileBlobs(other.db, blobsDir());
    const there = new DbMediaStore(other.db, blobs, { retentionMs: 7 * DAY });
    const opened = await there.open(stored.mediaId);
    expect(opened.medium).toEqual(stored);
    expect(Buffer.compare(await bytesOf(opened.stream), Buffer.from(mp4))).toBe(0);
  });

  it("keeps the bytes of the same content once; each put has its own id and name", async () => {
    const pdf = sampleMedium("file").bytes;
    const a = await store.put(streamOf(pdf), { maxBytes: MB, filename: "a.pdf" });
    const b = await store.put(streamOf(pdf), { maxBytes: MB, filename: "../b.pdf" });
    expect(a.mediaId).not.toBe(b.mediaId);
    expect([a.filename, b.filename]).toEqual(["a.pdf", "b.pdf"]);
    expect(a.sha256).toBe(b.sha256);
    if (name === "postgres") expect(await chunkCount()).toBe(1);
    else expect((await filesUnder(blobsDir())).map((f) => f.split("/").pop())).toEqual([a.sha256]);
    expect(Buffer.compare(await bytesOf((await store.open(b.mediaId)).stream), Buffer.from(pdf))).toBe(0);
  });

  it("streams a 40 MB medium in and out without ever holding it", async () => {
    const total = 40 * MB;
    const chunk = 64 * 1024;
    const gc = forceGc();
    // Every chunk the source hands out is watched: those still alive after a full collection are held by the store.
    const alive: WeakRef<Uint8Array>[] = [];
    let maxAlive = 0;
    let produced = 0;
    const sent = createHash("sha256");
    const source = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (produced >= total) return controller.close();
          if ((produced / chunk) % 64 === 63) {
            gc();
            for (let i = alive.length - 1; i >= 0; i--) if (alive[i]?.deref() === undefined) alive.splice(i, 1);
            maxAlive = Math.max(maxAlive, alive.length);
          }
          const bytes = randomBytes(chunk);
          sent.update(bytes);
          produced += chunk;
          const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
          alive.push(new WeakRef(view));
          controller.enqueue(view);
        },
      },
      { highWaterMark: 0 },
    );
    const stored = await store.put(source, { maxBytes: 50 * MB });
    expect(stored.size).toBe(total);
    expect(stored.sha256).toBe(sent.digest("hex"));
    // A store that collected the medium would hold ~640 chunks here.
    expect(maxAlive).toBeLessThan(16);
    if (name === "postgres") expect(await chunkCount()).toBe(total / CHUNK_BYTES);

    // Out: opening it and reading a piece reads no further (a store that loaded it would hold ~40 MB
    // of buffers here), and no piece read is kept after it was handed over.
    gc();
    const before = process.memoryUsage().arrayBuffers;
    const reader = (await store.open(stored.mediaId)).stream.getReader();
    const first = await reader.read();
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * MB);
    const got = createHash("sha256");
    const handed: WeakRef<Uint8Array>[] = [];
    let maxHanded = 0;
    let read = 0;
    let pieces = 0;
    for (let piece = first; !piece.done; piece = await reader.read()) {
      expect(piece.value.byteLength).toBeLessThanOrEqual(256 * 1024);
      got.update(piece.value);
      read += piece.value.byteLength;
      handed.push(new WeakRef(piece.value));
      if (++pieces % 32 === 0) {
        gc();
        for (let i = handed.length - 1; i >= 0; i--) if (handed[i]?.deref() === undefined) handed.splice(i, 1);
        maxHanded = Math.max(maxHanded, handed.length);
      }
    }
    expect(read).toBe(total);
    expect(got.digest("hex")).toBe(stored.sha256);
    expect(maxHanded).toBeLessThan(16);
  }, 120_000);

  it("stops past maxBytes with E_TOO_LARGE and keeps nothing of it", async () => {
    const error = await store
      .put(streamOf(randomBytes(600 * 1024), randomBytes(600 * 1024)), { maxBytes: MB, filename: "big.bin" })
      .catch((e: unknown) => e);
    expect(isChorusError(error) && error.code).toBe("E_TOO_LARGE");
    expect((error as Error).message).toBe('"big.bin" is over 1 MB.');
    expect(await mediaCount()).toBe(0);
    if (name === "postgres") expect(await chunkCount()).toBe(0);
    else expect(await filesUnder(blobsDir())).toEqual([]);
  });

  it("an aborted put keeps nothing either", async () => {
    const controller = new AbortController();
    let pulls = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(c) {
        if (++pulls === 3) controller.abort(new Error("client went away"));
        c.enqueue(randomBytes(300 * 1024));
      },
    });
    await expect(store.put(source, { maxBytes: 10 * MB, signal: controller.signal })).rejects.toThrow(
      "client went away",
    );
    expect(await mediaCount()).toBe(0);
    if (name === "postgres") expect(await chunkCount()).toBe(0);
    else expect(await filesUnder(blobsDir())).toEqual([]);
  });

  it("an unknown id is no medium: undefined, and E_MESSAGE_NOT_FOUND to open", async () => {
    expect(await store.get("med_nothingHereAtAll0000")).toBeUndefined();
    expect(await store.get("'; DROP TABLE media; --")).toBeUndefined();
    const error = await store.open("med_nothingHereAtAll0000").catch((e: unknown) => e);
    expect(isChorusError(error) && error.code).toBe("E_MESSAGE_NOT_FOUND");
  });

  it("retention deletes old media and their bytes, never one a pending reply sends", async () => {
    const png = sampleMedium("image").bytes;
    const mp3 = sampleMedium("audio").bytes;
    const old = await store.put(streamOf(png), { maxBytes: MB });
    const needed = await store.put(streamOf(mp3), { maxBytes: MB });
    const reply = await pendingReplyWith(test.state, needed.mediaId);
    clock += 6 * DAY;
    const young = await store.put(streamOf(sampleMedium("video").bytes), { maxBytes: MB });

    expect(await store.prune(clock)).toBe(0);
    clock += 2 * DAY;
    expect(await store.prune(clock)).toBe(1);
    expect(await store.get(old.mediaId)).toBeUndefined();
    expect(await store.get(needed.mediaId)).toBeDefined();
    expect(await store.get(young.mediaId)).toBeDefined();
    if (name === "postgres") expect(await chunkCount()).toBe(2);
    else expect((await filesUnder(blobsDir())).length).toBe(2);

    await test.state.outbox.markSent({ id: reply }, "p-1", clock);
    expect(await store.prune(clock)).toBe(1);
    expect(await store.get(needed.mediaId)).toBeUndefined();
    expect(await test.state.db.all("SELECT * FROM outbox_media")).toEqual([]);
    expect(
      Buffer.compare(await bytesOf((await store.open(young.mediaId)).stream), Buffer.from(sampleMedium("video").bytes)),
    ).toBe(0);
  });

  it("bytes another medium still has outlive the one that expired", async () => {
    const png = sampleMedium("image").bytes;
    const first = await store.put(streamOf(png), { maxBytes: MB });
    clock += 8 * DAY;
    const again = await store.put(streamOf(png), { maxBytes: MB });
    expect(await store.prune(clock)).toBe(1);
    expect(await store.get(first.mediaId)).toBeUndefined();
    expect(Buffer.compare(await bytesOf((await store.open(again.mediaId)).stream), Buffer.from(png))).toBe(0);
  });
});

describe("the media store's files (SQLite)", () => {
  let test: TestState;

  beforeEach(async () => {
    test = await openTestState();
  });

  afterEach(async () => {
    await test.close();
  });

  it("are owner-only: 0600 files in 0700 directories", async () => {
    const dir = join(test.home, "media", "blobs");
    const store = new DbMediaStore(test.state.db, new FileBlobs(test.state.db, dir), { retentionMs: DAY });
    const stored = await store.put(streamOf(sampleMedium("image").bytes), { maxBytes: MB });
    const file = join(dir, stored.sha256.slice(0, 2), stored.sha256);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    for (const path of [join(test.home, "media"), dir, join(dir, stored.sha256.slice(0, 2))]) {
      expect((await stat(path)).mode & 0o777).toBe(0o700);
    }
  });

  it("a prune removes what a crash left an hour ago: a temp file, bytes no medium names", async () => {
    const dir = join(test.home, "media", "blobs");
    const blobs = new FileBlobs(test.state.db, dir);
    const store = new DbMediaStore(test.state.db, blobs, { retentionMs: DAY });
    const kept = await store.put(streamOf(sampleMedium("image").bytes), { maxBytes: MB });
    const temp = join(dir, ".tmp-interrupted");
    const orphan = blobs.pathOf("ab".padEnd(64, "0"));
    const fresh = join(dir, ".tmp-running");
    await writeFile(temp, "partial");
    await import("node:fs/promises").then((fs) => fs.mkdir(join(dir, "ab"), { recursive: true }));
    await writeFile(orphan, "renamed, never committed");
    await writeFile(fresh, "a put still running");
    const anHourAgo = new Date(Date.now() - 61 * 60_000);
    for (const path of [temp, orphan, blobs.pathOf(kept.sha256)]) await utimes(path, anHourAgo, anHourAgo);
    await store.prune();
    const left = await filesUnder(dir);
    expect(left.sort()).toEqual([blobs.pathOf(kept.sha256), fresh].sort());
  });
});

describe("the media store's chunks (PostgreSQL)", () => {
  let test: TestState;

  beforeEach(async () => {
    test = await openTestState({ backend: "postgres", url: await freshPostgresDatabase("media") });
  });

  afterEach(async () => {
    await test.close();
  });

  const keys = async () =>
    (await test.state.db.all<{ sha256: string }>("SELECT DISTINCT sha256 FROM media_chunks ORDER BY sha256")).map(
      (row) => row.sha256,
    );

  it("a sweep removes the temporary chunks a crash left an hour ago, not those of a put still running", async () => {
    const blobs = new ChunkBlobs(test.state.db);
    const store = new DbMediaStore(test.state.db, blobs, { retentionMs: DAY });
    const kept = await store.put(streamOf(sampleMedium("image").bytes), { maxBytes: MB });
    const now = Date.now();
    const crashed = `tmp-${now - 61 * 60_000}-left-by-a-crash`;
    const running = `tmp-${now - 60_000}-a-put-still-running`;
    for (const key of [crashed, running]) {
      await test.state.db.run("INSERT INTO media_chunks (sha256, seq, bytes) VALUES ($1, 0, $2)", [
        key,
        new Uint8Array([1, 2, 3]),
      ]);
    }
    expect(await blobs.sweep(now)).toBe(1);
    expect(await keys()).toEqual([kept.sha256, running].sort());
  });
});
