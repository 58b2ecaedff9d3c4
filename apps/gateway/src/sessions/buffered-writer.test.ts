import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BufferedWriter } from "./buffered-writer.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-buffered-writer-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes `texts` through a writer of `bytes`, as the mirror does, and returns the file and the number of writes. */
async function writeThrough(texts: string[], bytes: number): Promise<{ file: string; writes: number }> {
  const path = join(dir, "out.txt");
  const handle = await open(path, "w");
  let writes = 0;
  const write = handle.write.bind(handle);
  handle.write = ((...args: Parameters<typeof handle.write>) => {
    writes++;
    return write(...args);
  }) as typeof handle.write;
  try {
    const out = new BufferedWriter(handle, bytes);
    for (const text of texts) if (!out.add(text)) await out.flushThenAdd(text);
    await out.flush();
  } finally {
    await handle.close();
  }
  return { file: await readFile(path, "utf8"), writes };
}

describe("BufferedWriter", () => {
  it("writes every text in order, a buffer's worth at a time", async () => {
    const texts = Array.from({ length: 100 }, (_, i) => `"entry-${i}":{"turns":${i}},`);
    const { file, writes } = await writeThrough(texts, 256);
    expect(file).toBe(texts.join(""));
    expect(writes).toBeGreaterThan(texts.join("").length / 256);
    expect(writes).toBeLessThanOrEqual(Math.ceil(texts.join("").length / 200));
  });

  it("keeps multi-byte characters whole at a buffer's edge and writes a text longer than the buffer as it is", async () => {
    const texts = ["ab", "👍".repeat(5), "é".repeat(40), "z", "日本".repeat(3)];
    const { file } = await writeThrough(texts, 16);
    expect(file).toBe(texts.join(""));
  });

  it("writes nothing for nothing", async () => {
    expect(await writeThrough([], 64)).toEqual({ file: "", writes: 0 });
  });
});
