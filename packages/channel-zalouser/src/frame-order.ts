import type { Redactor } from "@chorus/channel-kit";
import type { Logger } from "@chorus/core";
import type { API } from "zca-js";

type Listener = API["listener"];
/** A frame handler as zca-js sets it on its socket: `ws.onmessage = async (event) => { … }`. */
type FrameHandler = (this: unknown, event: { data?: unknown }) => unknown;

/** The zca-js version whose internals `frameHandlerOf` was read from. */
const READ_FROM = "zca-js 2.2.0";

/**
 * The frame handler of the listener's current WebSocket, or what is missing. This is the one reach
 * into zca-js' internals, read from zca-js 2.2.0 (`dist/apis/listen.js`, `Listener.start()`): the
 * socket is the private field `ws` (`private ws` in its .d.ts, so not typed for us), a `ws` package
 * WebSocket that `start()` assigns, with its `onmessage`, synchronously, before it opens; every
 * start (zca-js' own retries included) opens a new one. Another version may hold it elsewhere.
 */
function frameHandlerOf(listener: Listener): { socket: { onmessage: unknown }; handler: FrameHandler } | string {
  const socket: unknown = (listener as unknown as { ws?: unknown }).ws;
  if (typeof socket !== "object" || socket === null) return "zca-js' listener has no `ws` socket";
  const handler: unknown = (socket as { onmessage?: unknown }).onmessage;
  if (typeof handler !== "function") return "zca-js' listener socket has no `onmessage` handler";
  return { socket: socket as { onmessage: unknown }, handler: handler as FrameHandler };
}

/** A frame's command, from its 4-byte header (version, cmd as 16 bits little endian, subCmd); never its payload. */
function frameName(data: unknown): string {
  if (!Buffer.isBuffer(data)) return "not binary";
  return data.length >= 4 ? `cmd ${data.readUInt16LE(1)}` : `${data.length} bytes, no header`;
}

/**
 * Keeps the frames of one account's zca-js listener in the order Zalo pushed them. zca-js 2.2.0
 * decodes each frame in an async `onmessage` (AES-GCM through `crypto.subtle`, on libuv's thread
 * pool) and emits it once decoded, so a frame that decrypts faster overtakes an earlier one. The
 * returned function, called on each "connected" of the listener, wraps the new socket's handler so
 * that a frame's handling starts once the previous one settled, across reconnects. A handler that
 * rejects is a warning naming the frame's command, and the next frame goes on. Where zca-js is not
 * shaped as expected, frames stay as zca-js handles them (unordered), with one warning.
 */
export function createFrameOrder(deps: { logger: Logger; redactor: Redactor }): (listener: Listener) => void {
  const { logger, redactor } = deps;
  let previous: Promise<unknown> = Promise.resolve();
  let warned = false;
  const ours = new WeakSet<FrameHandler>();

  return (listener) => {
    const found = frameHandlerOf(listener);
    if (typeof found === "string") {
      if (warned) return;
      warned = true;
      logger.warn(
        { problem: found },
        `zalouser: ${found} (the plugin reads it as in ${READ_FROM}); listener events may reach the gateway out of order`,
      );
      return;
    }
    const { socket, handler } = found;
    if (ours.has(handler)) return;
    const inOrder: FrameHandler = function (this: unknown, event) {
      const turn = previous.then(() => handler.call(this, event));
      previous = turn.catch((error: unknown) => {
        const problem = redactor.text(error instanceof Error ? error.message : String(error));
        const frame = frameName(event.data);
        logger.warn({ frame, problem }, `zalouser: zca-js failed on a listener frame (${frame}): ${problem}`);
      });
    };
    ours.add(inOrder);
    socket.onmessage = inOrder;
  };
}
