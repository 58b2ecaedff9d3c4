import { waitFor } from "@chorus/testkit";
import WebSocket from "ws";

// biome-ignore lint/suspicious/noExplicitAny: frames are checked field by field in the tests
export type Frame = Record<string, any>;

export interface WebchatClient {
  frames: Frame[];
  you: { id: string; name: string };
  send(frame: Frame): void;
  /** The first frame (already received or future) that matches. */
  waitForFrame(match: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  close(): Promise<void>;
}

/** A person in the webchat: connects over the real WebSocket, says hello, keeps every frame. */
export async function connectWebchat(baseUrl: string, token: string, name: string): Promise<WebchatClient> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/webchat/ws?token=${encodeURIComponent(token)}`);
  const frames: Frame[] = [];
  socket.on("message", (data) => frames.push(JSON.parse(String(data)) as Frame));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  socket.send(JSON.stringify({ type: "hello", name }));
  const waitForFrame = async (match: (frame: Frame) => boolean, timeoutMs = 10_000) =>
    waitFor(() => frames.find(match), {
      timeoutMs,
      message: `no matching frame; got ${JSON.stringify(frames).slice(-2000)}`,
    });
  const welcome = await waitForFrame((f) => f.type === "welcome");
  return {
    frames,
    you: welcome.you,
    send: (frame) => socket.send(JSON.stringify(frame)),
    waitForFrame,
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once("close", () => resolve());
        socket.close();
      }),
  };
}
