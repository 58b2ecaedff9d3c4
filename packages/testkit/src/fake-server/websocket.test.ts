import { on, once } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createFakeServer } from "./server.js";
import type { FakeServer } from "./server-types.js";

describe("websockets", () => {
  let server: FakeServer<{ connects: number }>;
  const clients: WebSocket[] = [];

  /** Opens a client; `next()` yields its messages as text, none missed (listening starts before `open`). */
  const connect = async (path: string): Promise<{ client: WebSocket; next: () => Promise<string> }> => {
    const client = new WebSocket(`${server.url.replace("http", "ws")}${path}`);
    clients.push(client);
    const messages = on(client, "message");
    await once(client, "open");
    return { client, next: async () => String((await messages.next()).value[0]) };
  };

  beforeEach(async () => {
    server = createFakeServer({ state: { connects: 0 } });
    server.websocket("/gateway/:shard", (socket, ctx) => {
      ctx.state.connects += 1;
      socket.send(JSON.stringify({ op: "hello", shard: ctx.params.shard, v: ctx.query.get("v") }));
      socket.on("message", (data) => socket.send(`echo:${String(data)}`));
    });
    await server.start();
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) client.terminate();
    await server.close();
  });

  it("passes params and query, and echoes messages", async () => {
    const { client, next } = await connect("/gateway/3?v=10");
    expect(JSON.parse(await next())).toEqual({ op: "hello", shard: "3", v: "10" });
    client.send("ping");
    expect(await next()).toBe("echo:ping");
    expect(server.state.connects).toBe(1);
    expect(server.sockets).toHaveLength(1);
    expect(server.requestsTo("GET", "/gateway/:shard")).toMatchObject([{ status: 101, query: { v: "10" } }]);
  });

  it("dropWebSockets with a code closes the client with that code", async () => {
    const { client } = await connect("/gateway/0");
    const closed = once(client, "close");
    await server.dropWebSockets(4000, "reconnect please");
    const [code, reason] = await closed;
    expect(code).toBe(4000);
    expect(String(reason)).toBe("reconnect please");
    expect(server.sockets).toHaveLength(0);
  });

  it("dropWebSockets without a code terminates abruptly (1006), and the client can reconnect", async () => {
    const { client } = await connect("/gateway/0");
    const closed = once(client, "close");
    await server.dropWebSockets();
    const [code] = await closed;
    expect(code).toBe(1006);
    await connect("/gateway/0");
    expect(server.state.connects).toBe(2);
    expect(server.sockets).toHaveLength(1);
  });

  it("answers an unmatched upgrade with 404", async () => {
    const client = new WebSocket(`${server.url.replace("http", "ws")}/nope`);
    clients.push(client);
    const [error] = await once(client, "error");
    expect(String(error)).toMatch(/404/);
    expect(server.requests).toMatchObject([{ path: "/nope", status: 404 }]);
  });

  it("records a crashing connection handler and closes the socket with 1011", async () => {
    server.websocket("/broken", () => {
      throw new Error("ws handler boom");
    });
    const client = new WebSocket(`${server.url.replace("http", "ws")}/broken`);
    clients.push(client);
    const [code] = await once(client, "close");
    expect(code).toBe(1011);
    expect(server.errors).toMatchObject([{ path: "/broken", message: "ws handler boom" }]);
  });

  it("close() terminates open sockets", async () => {
    const { client } = await connect("/gateway/1");
    const closed = once(client, "close");
    await server.close();
    const [code] = await closed;
    expect(code).toBe(1006);
  });
});
