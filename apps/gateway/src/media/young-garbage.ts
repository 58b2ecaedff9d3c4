import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Media bytes streamed between two young-generation collections. */
export const COLLECT_EVERY_BYTES = 2 * 1024 * 1024;

/** V8's collection function, as `--expose-gc` gives it. */
export type Collect = (options: { type: "minor" }) => void;

/**
 * Counts the media bytes the store streams and runs a young-generation collection (a scavenge,
 * ~1 ms) after every `everyBytes` of them.
 *
 * Why: a stream's chunks are ArrayBuffers whose memory V8 frees only when a collection finds them
 * dead, and a scavenge comes when the young generation fills with JavaScript objects — which moving
 * bytes hardly makes — or, at the latest, once ~32 MiB of new ArrayBuffers were allocated (twice
 * V8's largest semi-space). So a 40 MB file going through the gateway left up to ~32 MB of dead
 * chunks in its RSS; a download through `fetch` leaves about three bytes of buffers a byte (the
 * socket's read, undici's copy, the stream's). Collecting every 2 MiB took a 40 MB download's
 * peak from ~38 to ~12 MB above idle on Node 20 (Node 22: ~49 to ~27; Node 24: ~60 to ~31).
 */
export class YoungGarbage {
  #streamed = 0;

  constructor(
    private readonly collect: () => Collect | undefined,
    private readonly everyBytes = COLLECT_EVERY_BYTES,
  ) {}

  /** `bytes` more were streamed. */
  streamed(bytes: number): void {
    this.#streamed += bytes;
    if (this.#streamed < this.everyBytes) return;
    this.#streamed = 0;
    this.collect()?.({ type: "minor" });
  }
}

let exposed: Collect | null | undefined;

/**
 * V8's `gc`, taken from a context made while `--expose-gc` was set for that moment only: the
 * gateway's own global gets no `gc`. Undefined where the runtime refuses it.
 */
export function exposedCollect(): Collect | undefined {
  if (exposed === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      exposed = runInNewContext("gc") as Collect;
    } catch {
      exposed = null;
    } finally {
      setFlagsFromString("--no-expose-gc");
    }
  }
  return exposed ?? undefined;
}

/** The process's one counter: every put and read of the store adds to it. */
export const mediaGarbage = new YoungGarbage(exposedCollect);
