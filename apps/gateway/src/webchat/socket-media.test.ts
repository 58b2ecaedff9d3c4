import type { Server } from "node:http";
import { join } from "node:path";
import { streamOf } from "@chorus/channel-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebchatHub } from "./hub.js";
import { WebchatMedia } from "./media-store.js";
import { WebchatSite } from "./site.js";
import { attachWebchatSocket, type WebchatSocket } from "./socket.js";
import { UploadStaging } from "./staging.js";
import { closeServer, listen, TestClient, type TestMediaStore, tempDir, testMediaStore } from "./support.test.util.js";
import { Uploads } from "./uploads.js";

const TOKEN = "socket-media-token-0123456789";
let server: Server;
let port: number;
let hub: WebchatHub;
let uploads: Uploads;
let socket: WebchatSocket;
let cleanup: () => Promise<void>;
let opened: TestMediaStore;
let media: WebchatMedia;
const clients: TestClient[] = [];

beforeEach(async () => {
  const temp = await tempDir("socket-media");
  cleanup = temp.cleanup;
  const staging = new UploadStaging(join(temp.dir, "uploads"));
  await staging.ready();
  opened = await testMediaStore();
  media = new WebchatMedia(opened.store);
  uploads = new Uploads(staging, media);
  ({ server, port } = await listen());
  hub = new WebchatHub({ botName: "Chorus", uploads });
  const site = new WebchatSite();
  site.serve(hub);
  socket = attachWebchatSocket(server, site, { token: TOKEN });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await socket.close();
  await closeServer(server);
  await opened.close();
  await cleanup();
});

async function ada() {
  const c = await TestClient.connect(`ws://127.0.0.1:${port}/webchat/ws?token=${TOKEN}`);
  clients.push(c);
  c.send({ type: "hello", name: "Ada" });
  await c.next("welcome");
  c.send({ type: "join", room: "lobby" });
  await c.next("history");
  return c;
}

async function uploaded(name: string, bytes: Uint8Array): Promise<string> {
  const { medium } = await uploads.begin({ filename: name, mime: "image/png", size: bytes.byteLength });
  await uploads.append(medium.id, 0, streamOf(bytes));
  return medium.id;
}

describe("webchat socket: messages with media and places", () => {
  it("posts a message carrying its uploads, in order, with no text needed: their bytes in the media store", async () => {
    const c = await ada();
    const first = await uploaded("a.png", new Uint8Array([1, 2]));
    const second = await uploaded("b.png", new Uint8Array([3]));
    c.send({ type: "message", room: "lobby", text: "", attachments: [first, second] });
    const { message } = await c.next("message");
    expect(message.text).toBe("");
    expect(message.attachments?.map((m) => [m.id, m.filename, m.size, m.url])).toEqual([
      [first, "a.png", 2, `/hooks/webchat/media?id=${first}`],
      [second, "b.png", 1, `/hooks/webchat/media?id=${second}`],
    ]);
    // The page never sees the store's id.
    expect(JSON.stringify(message)).not.toContain("med_");
    const bytesOf = async (id: string) => {
      const parts: number[] = [];
      for await (const chunk of await media.open(hub.medium(id)?.mediaId as string)) parts.push(...chunk);
      return parts;
    };
    expect([await bytesOf(first), await bytesOf(second)]).toEqual([[1, 2], [3]]);
    expect(uploads.has(first)).toBe(false);
  });

  it("answers a message naming an upload it does not have with an error frame, posting nothing", async () => {
    const c = await ada();
    const kept = await uploaded("a.png", new Uint8Array([1]));
    c.send({ type: "message", room: "lobby", text: "two", attachments: [kept, "wm_AAAAAAAAAAAAAAAAAAAAAA"] });
    expect(await c.next("error")).toMatchObject({
      code: "E_INVALID_INPUT",
      message: "there is no finished upload wm_AAAAAAAAAAAAAAAAAAAAAA",
      frame: "message",
    });
    expect(hub.messagesIn("lobby")).toEqual([]);
    expect(uploads.has(kept)).toBe(true);
  });

  it("puts the uploads back when the message cannot be posted", async () => {
    const c = await ada();
    const kept = await uploaded("a.png", new Uint8Array([1]));
    c.send({ type: "message", room: "lobby", text: "", attachments: [kept], replyTo: "m_gone" });
    expect(await c.next("error")).toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
    expect(uploads.has(kept)).toBe(true);
  });

  it("posts a place as a pin, and still refuses a message with nothing in it", async () => {
    const c = await ada();
    c.send({
      type: "message",
      room: "lobby",
      text: "",
      location: { latitude: 48.8584, longitude: 2.2945, name: " Eiffel Tower " },
    });
    expect((await c.next("message")).message.location).toEqual({
      latitude: 48.8584,
      longitude: 2.2945,
      name: "Eiffel Tower",
    });
    c.send({ type: "message", room: "lobby", text: "" });
    expect(await c.next("error")).toMatchObject({ message: "invalid message frame: text: text is empty" });
    c.send({ type: "message", room: "lobby", text: "", location: { latitude: 91, longitude: 0 } });
    expect((await c.next("error")).message).toMatch(/^invalid message frame: location.latitude/);
  });
});
