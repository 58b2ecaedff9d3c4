import type { Logger } from "@chorus/core";
import type { WASocket } from "@whiskeysockets/baileys";

type FrameListener = (data: unknown) => unknown;

/**
 * Makes a frame Baileys cannot read end the connection instead of the process. Baileys decrypts
 * and decodes each WebSocket frame in an async `message` listener (rc14 `Socket/socket.js`,
 * `onMessageReceived`), so a frame that is not valid noise or not a binary node rejects where
 * nobody awaits it: an unhandled rejection that would end the gateway. Each listener is wrapped:
 * the failure is logged and the socket is ended, which the connection answers with a reconnect.
 */
export function guardFrames(socket: WASocket, logger: Logger): void {
  const ws = socket.ws as unknown as {
    listeners(event: "message"): FrameListener[];
    off(event: "message", listener: FrameListener): unknown;
    on(event: "message", listener: FrameListener): unknown;
  };
  for (const listener of ws.listeners("message")) {
    ws.off("message", listener);
    ws.on("message", (data) => {
      Promise.resolve()
        .then(() => listener(data))
        .catch((error: unknown) => {
          const why = error instanceof Error ? error.message : String(error);
          logger.warn({ err: error }, `whatsapp: WhatsApp sent a frame that is not valid (${why}); reconnecting`);
          void socket.end(new Error(`WhatsApp sent a frame that could not be read: ${why}`)).catch(() => undefined);
        });
    });
  }
}
