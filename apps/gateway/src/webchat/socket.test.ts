import type { Server } from "node:http";
import { waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { WebchatHub } from "./hub.js";
import { WebchatSite } from "./site.js";
import { attachWebchatSocket, type WebchatSocket } from "./socket.js";
import { closeServer, listen, TestClient } from "./support.test.util.js";

const TOKEN = "s3cret-token-for-tests";
let server: Server;
let port: number;
let hub: WebchatHub;
let site: WebchatSite;
let socket: WebchatSocket;
const clients: TestClient[] = [];

async function client(token: string | null = TOKEN, path = "/webchat/ws"): Promise<TestClient> {
  const query = token === null ? "" : `?token=${encodeURIComponent(token)}`;
  const connected = await TestClient.connect(`ws://127.0.0.1:${port}${path}${query}`);
  clients.push(connected);
  return connected;
}

async function person(name: string, room?: string) {
  const c = await client();
  c.send({ type: "hello", name });
  const welcome = await c.next("welcome");
  if (room) {
    c.send({ type: "join", room });
    await c.next("history", (f) => f.room === room);
  }
  return { c, me: welcome.you, welcome };
}

beforeEach(async () => {
  ({ server, port } = await listen());
  hub = new WebchatHub({ botName: "Chorus" });
  site = new WebchatSite();
  site.serve(hub);
  socket = attachWebchatSocket(server, site, { token: TOKEN });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await socket.close();
  await closeServer(server);
});

describe("webchat socket", () => {
  it("welcomes a person with their identity, the bot and their rooms", async () => {
    const { me, welcome } = await person("Ada");
    expect(me).toEqual({ id: expect.stringMatching(/^u_/), name: "Ada" });
    expect(welcome.bot).toEqual({ id: "bot", name: "Chorus", bot: true });
    expect(welcome.rooms.map((r) => [r.id, r.kind, r.title])).toEqual([
      [`dm:${me.id}`, "direct", "Chorus"],
      ["lobby", "group", "lobby"],
    ]);
  });

  it("sends a room's history on join", async () => {
    const ada = await person("Ada", "lobby");
    ada.c.send({ type: "message", room: "lobby", text: "first" });
    await ada.c.next("message");
    const bob = await person("Bob");
    bob.c.send({ type: "join", room: "lobby" });
    const history = await bob.c.next("history");
    expect(history.room).toBe("lobby");
    expect(history.messages.map((m) => [m.sender.name, m.text])).toEqual([["Ada", "first"]]);
  });

  it("broadcasts a message to everyone in the room and nobody elsewhere", async () => {
    const ada = await person("Ada", "lobby");
    const bob = await person("Bob", "lobby");
    const carol = await person("Carol", "garden");
    ada.c.send({ type: "message", room: "lobby", text: "hi @bob" });
    const atAda = await ada.c.next("message");
    const atBob = await bob.c.next("message");
    expect(atBob.message).toEqual(atAda.message);
    expect(atBob.message).toMatchObject({ room: "lobby", text: "hi @bob", mentions: [bob.me], sender: ada.me });
    carol.c.send({ type: "message", room: "garden", text: "alone here" });
    await carol.c.next("message");
    expect(carol.c.all("message").map((f) => f.message.text)).toEqual(["alone here"]);
    expect(bob.c.all("message").map((f) => f.message.text)).toEqual(["hi @bob"]);
  });

  it("answers invalid frames with an error frame and keeps the socket open", async () => {
    const c = await client();
    c.send("not json");
    expect(await c.next("error")).toMatchObject({ code: "E_INVALID_INPUT", message: /^frame is not JSON/ });
    c.send({ type: "join", room: "lobby" });
    expect(await c.next("error")).toMatchObject({ message: "say hello before sending a join frame", frame: "join" });
    c.send({ type: "hello", name: "Ada" });
    await c.next("welcome");
    c.send({ type: "message", room: "lobby", text: "" });
    expect(await c.next("error")).toMatchObject({ message: "invalid message frame: text: text is empty" });
    c.send({ type: "message", room: "lobby", text: "not joined yet" });
    expect(await c.next("error")).toMatchObject({ message: 'join room "lobby" before writing in it' });
    c.send({ type: "react", messageId: "m_nope", emoji: "👍" });
    expect(await c.next("error")).toMatchObject({ code: "E_MESSAGE_NOT_FOUND", frame: "react" });
    c.send({ type: "join", room: "lobby" });
    await c.next("history");
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
  });

  it("refuses the upgrade with 401 without the right token and leaves other paths alone", async () => {
    await expect(client(null)).rejects.toThrow("HTTP 401");
    await expect(client("wrong")).rejects.toThrow("HTTP 401");
    await expect(client(`${TOKEN}x`)).rejects.toThrow("HTTP 401");
    await expect(client(TOKEN.slice(0, -1))).rejects.toThrow("HTTP 401");
    const other = new WebSocketServer({ noServer: true });
    server.on("upgrade", (request, raw, head) => {
      if (request.url === "/other") other.handleUpgrade(request, raw, head, (ws) => ws.send("from the other handler"));
    });
    const elsewhere = new WebSocket(`ws://127.0.0.1:${port}/other`);
    const greeting = await new Promise<string>((resolve, reject) => {
      elsewhere.once("message", (data) => resolve(data.toString()));
      elsewhere.once("error", reject);
    });
    expect(greeting).toBe("from the other handler");
    elsewhere.terminate();
    other.close();
  });

  it("broadcasts reactions from people and from the bot", async () => {
    const ada = await person("Ada", "lobby");
    const bob = await person("Bob", "lobby");
    ada.c.send({ type: "message", room: "lobby", text: "react to this" });
    const { message } = await bob.c.next("message");
    bob.c.send({ type: "react", messageId: message.id, emoji: "👍" });
    bob.c.send({ type: "react", messageId: message.id, emoji: "❤️" });
    await ada.c.next("reactions", (f) => f.reactions.length === 2);
    hub.react(message.id, "bot", "👍", true);
    const both = await ada.c.next("reactions", (f) => f.reactions[0]?.users.length === 2);
    expect(both.reactions).toEqual([
      { emoji: "👍", users: [bob.me, hub.bot] },
      { emoji: "❤", users: [bob.me] },
    ]);
    bob.c.send({ type: "react", messageId: message.id, emoji: "👍", remove: true });
    const after = await ada.c.next("reactions", (f) => f.reactions[0]?.users.length === 1);
    expect(after.reactions[0]).toEqual({ emoji: "👍", users: [hub.bot] });
    expect(hub.reactionsBy(message.id, bob.me.id)).toEqual(["❤"]);
  });

  it("passes typing to the others in the room, not back to the typist", async () => {
    const ada = await person("Ada", "lobby");
    const bob = await person("Bob", "lobby");
    ada.c.send({ type: "typing", room: "lobby", on: true });
    expect(await bob.c.next("typing")).toEqual({ type: "typing", room: "lobby", userId: ada.me.id, on: true });
    hub.setTyping("lobby", "bot", true);
    await ada.c.next("typing", (f) => f.userId === "bot");
    expect(ada.c.all("typing").map((f) => f.userId)).toEqual(["bot"]);
  });

  it("keeps the identity across a reconnect with the stored userId", async () => {
    const first = await person("Ada", "lobby");
    first.c.send({ type: "message", room: "lobby", text: "before" });
    await first.c.next("message");
    await first.c.close();
    const again = await client();
    again.send({ type: "hello", name: "Ada Lovelace", userId: first.me.id });
    const welcome = await again.next("welcome");
    expect(welcome.you).toEqual({ id: first.me.id, name: "Ada Lovelace" });
    expect(welcome.rooms.find((r) => r.id === "lobby")?.members.map((m) => m.name)).toEqual(["Chorus", "Ada Lovelace"]);
    again.send({ type: "join", room: "lobby" });
    const history = await again.next("history");
    expect(history.messages[0]?.sender).toEqual({ id: first.me.id, name: "Ada Lovelace" });
    again.send({ type: "message", room: "lobby", text: "after" });
    expect((await again.next("message")).message.sender.id).toBe(first.me.id);
  });

  it("drops sockets that stop answering pings and keeps the others", async () => {
    await socket.close();
    socket = attachWebchatSocket(server, site, { token: TOKEN, heartbeatMs: 100 });
    const live = await person("Ada");
    const silent = new WebSocket(`ws://127.0.0.1:${port}/webchat/ws?token=${TOKEN}`, { autoPong: false });
    const closed = new Promise<void>((resolve) => silent.once("close", () => resolve()));
    await new Promise((resolve) => silent.once("open", resolve));
    await waitFor(() => socket.clients === 2);
    await closed;
    await waitFor(() => socket.clients === 1, { message: "the server to forget the silent socket" });
    expect(live.c.ws.readyState).toBe(WebSocket.OPEN);
  });

  it("refuses connections (503) while no hub runs and closes a stopped hub's sockets (1012)", async () => {
    const { c } = await person("Ada");
    const code = new Promise<number>((resolve) => c.ws.once("close", (value) => resolve(value)));
    site.withdraw(hub);
    expect(await code).toBe(1012);
    await expect(client()).rejects.toThrow("HTTP 503");
    // The next hub (the instance restarted) takes the browsers that connect again.
    const next = new WebchatHub({ botName: "Chorus" });
    site.serve(next);
    const again = await person("Ada", "lobby");
    expect(next.user(again.me.id)).toEqual(again.me);
    expect(hub.user(again.me.id)).toBeUndefined();
    next.post("lobby", "bot", "hello again");
    expect((await again.c.next("message")).message.text).toBe("hello again");
    hub.post("lobby", "bot", "from the stopped hub");
    expect(again.c.all("message").map((f) => f.message.text)).toEqual(["hello again"]);
  });

  it("closes its sockets with 1001 on close", async () => {
    const { c } = await person("Ada");
    const code = new Promise<number>((resolve) => c.ws.once("close", (value) => resolve(value)));
    await socket.close();
    expect(await code).toBe(1001);
  });
});
