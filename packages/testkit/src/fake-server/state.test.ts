import { describe, expect, it } from "vitest";
import { FakeServerError } from "./errors.js";
import { faults } from "./faults.js";
import { json } from "./responses.js";
import { createFakeServer } from "./server.js";

interface ChatState {
  messages: { id: number; text: string }[];
  nextId: number;
}

describe("state and lifecycle", () => {
  it("keeps handler state and reset() restores a fresh copy of the initial state", async () => {
    const initial: ChatState = { messages: [], nextId: 1 };
    const server = createFakeServer({ state: initial });
    server.route("POST", "/messages", (ctx) => {
      const message = { id: ctx.state.nextId++, text: ctx.json<{ text: string }>().text };
      ctx.state.messages.push(message);
      return json(200, message);
    });
    await server.start();
    try {
      const res = await fetch(`${server.url}/messages`, { method: "POST", body: '{"text":"a"}' });
      expect(await res.json()).toEqual({ id: 1, text: "a" });
      expect(server.state).toEqual({ messages: [{ id: 1, text: "a" }], nextId: 2 });
      expect(initial).toEqual({ messages: [], nextId: 1 });

      server.inject(faults.reset({}));
      server.reset();
      expect(server.state).toEqual({ messages: [], nextId: 1 });
      expect(server.requests).toEqual([]);
      expect(server.faults).toEqual([]);

      const again = await fetch(`${server.url}/messages`, { method: "POST", body: '{"text":"b"}' });
      expect(await again.json()).toEqual({ id: 1, text: "b" });
    } finally {
      await server.close();
    }
  });

  it("reset() also clears recorded handler errors", async () => {
    const server = createFakeServer();
    server.route("GET", "/boom", () => {
      throw new Error("x");
    });
    await server.start();
    try {
      await fetch(`${server.url}/boom`);
      expect(server.errors).toHaveLength(1);
      server.reset();
      expect(server.errors).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("throws a typed error for url before start, and refuses to restart after close", async () => {
    const server = createFakeServer();
    expect(() => server.url).toThrow(FakeServerError);
    const url = await server.start();
    expect(url).toBe(server.url);
    expect(await server.start()).toBe(url);
    await server.close();
    await expect(server.close()).resolves.toBeUndefined();
    await expect(server.start()).rejects.toMatchObject({ code: "E_SERVER_STATE" });
  });

  it("closes idle keep-alive connections promptly", async () => {
    const server = createFakeServer();
    server.route("GET", "/", () => json(200, {}));
    await server.start();
    expect((await fetch(server.url)).status).toBe(200);
    await server.close();
    await expect(fetch(server.url)).rejects.toThrow(TypeError);
  });
});
