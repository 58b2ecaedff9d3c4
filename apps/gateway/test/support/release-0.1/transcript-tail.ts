import type { FileHandle } from "node:fs/promises";
import { parseTranscriptLine } from "../../../src/testing/index.js";

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Makes an append-mode transcript end with a newline before the next append: a complete last
 * entry that only lost its newline gets it back; a torn line (a crash mid-append) is cut off.
 */
export async function repairTornTail(handle: FileHandle): Promise<void> {
  const { size } = await handle.stat();
  if (size === 0) return;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === NEWLINE) return;
  const lineStart = await findLineStart(handle, size);
  const tail = Buffer.alloc(size - lineStart);
  await handle.read(tail, 0, tail.length, lineStart);
  if (isCompleteEntry(tail.toString("utf8"))) {
    await handle.write("\n");
  } else {
    await handle.truncate(lineStart);
  }
  await handle.sync();
}

/** Offset just after the last newline before `size`, or 0. */
async function findLineStart(handle: FileHandle, size: number): Promise<number> {
  const buffer = Buffer.alloc(CHUNK);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    const at = buffer.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (at !== -1) return start + at + 1;
    end = start;
  }
  return 0;
}

function isCompleteEntry(line: string): boolean {
  try {
    parseTranscriptLine(line);
    return true;
  } catch {
    return false;
  }
}
