import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { ChorusError } from "@chorus/core";

/** Bytes read from a file at a time. */
export const READ_BYTES = 256 * 1024;

/** Opens `path` for reading, never through a symbolic link at its end; `E_MESSAGE_NOT_FOUND` when it is not there. */
export async function openForReading(path: string, what: string): Promise<FileHandle> {
  try {
    return await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new ChorusError("E_MESSAGE_NOT_FOUND", `${what} is gone (its bytes are not in the store).`);
    }
    throw error;
  }
}

/**
 * A file's bytes from `from` on as a stream read `READ_BYTES` at a time, only as fast as the stream
 * is read (nothing is read ahead); the file is opened on the first read and closed at the end or on
 * cancel. `onRead` hears the bytes of each read.
 */
export function fileStream(
  handle: () => Promise<FileHandle>,
  from = 0,
  onRead?: (bytes: number) => void,
): ReadableStream<Uint8Array> {
  let opened: FileHandle | undefined;
  let position = from;
  const close = async () => {
    const file = opened;
    opened = undefined;
    await file?.close().catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          opened ??= await handle();
          const buffer = new Uint8Array(READ_BYTES);
          const { bytesRead } = await opened.read(buffer, 0, buffer.byteLength, position);
          if (bytesRead === 0) {
            await close();
            controller.close();
            return;
          }
          position += bytesRead;
          onRead?.(bytesRead);
          controller.enqueue(bytesRead === buffer.byteLength ? buffer : buffer.slice(0, bytesRead));
        } catch (error) {
          await close();
          controller.error(error);
        }
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  );
}

/** Writes all of `chunk` at the file's current end. */
export async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}
