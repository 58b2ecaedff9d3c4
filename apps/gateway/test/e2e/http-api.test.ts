import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { makeHome, STACK_LINE } from "../support/loading-cli.js";
import { installIntoHome } from "../support/loading-plugins.js";

const TOKEN = "http-api-test-token-0123456789";
const MAX_BODY = 1024;

describe("the HTTP API of the real gateway process (webchat + acme)", () => {
  let gateway: GatewayProcess;

  beforeAll(async () => {
    const home = await makeHome();
    await installIntoHome(home, "chorus-channel-acme");
    gateway = await startGatewayProcess({
      home,
      config: { gateway: { auth: { token: TOKEN }, maxBodyBytes: MAX_BODY }, channels: { acme: { greeting: "hi" } } },
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    if (gateway) await removeHome(gateway.home);
  });

  /** A raw request; `auth: false` leaves the bearer token out. */
  function request(
    method: string,
    path: string,
    init: { body?: string | ReadableStream<Uint8Array>; auth?: boolean | string } = {},
  ) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (init.auth !== false) headers.authorization = typeof init.auth === "string" ? init.auth : `Bearer ${TOKEN}`;
    return fetch(`${gateway.url}${path}`, {
      method,
      headers,
      ...(init.body === undefined ? {} : { body: init.body, duplex: "half" }),
    } as RequestInit);
  }

  /** An error reply: JSON `{ ok: false, error: { code, message } }` with this status, and no stack trace. */
  async function failure(response: Response | Promise<Response>, status: number, code: string) {
    const reply = await response;
    const text = await reply.text();
    expect(text).not.toMatch(STACK_LINE);
    expect(text).not.toContain('"stack"');
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    expect({ status: reply.status, code: JSON.parse(text).error?.code }).toEqual({ status, code });
    const body = JSON.parse(text) as { ok: boolean; error: { code: string; message: string } };
    expect(body.ok).toBe(false);
    return body.error;
  }

  const tool = (body: unknown) => request("POST", "/v1/tools/message", { body: JSON.stringify(body) });

  it("GET /healthz answers without a token", async () => {
    const reply = await fetch(`${gateway.url}/healthz`);
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ ok: true });
  });

  it("GET /v1/channels needs the bearer token", async () => {
    for (const auth of [false, "Bearer wrong-token", `Basic ${TOKEN}`, TOKEN, `Bearer ${TOKEN}x`] as const) {
      const error = await failure(request("GET", "/v1/channels", { auth }), 401, "E_AUTH");
      expect(error.message).toBe("missing or wrong bearer token (gateway.auth.token)");
    }
    await failure(fetch(`${gateway.url}/v1/channels?token=${TOKEN}`), 401, "E_AUTH");
    const reply = await request("GET", "/v1/channels");
    expect(reply.status).toBe(200);
    const { channels } = (await reply.json()) as { channels: { id: string }[] };
    expect(channels.map((c) => c.id).sort()).toEqual(["acme", "webchat"]);
  });

  it("POST /v1/tools/message: a body that is not JSON → 400", async () => {
    const error = await failure(
      request("POST", "/v1/tools/message", { body: "{ channel: webchat" }),
      400,
      "E_INVALID_INPUT",
    );
    expect(error.message).toBe("request body must be JSON");
  });

  it("an unknown key → 400 naming it", async () => {
    const error = await failure(
      tool({ channel: "webchat", target: "lobby", action: "send", text: "hi", colour: "red" }),
      400,
      "E_INVALID_INPUT",
    );
    expect(error.message).toContain("colour");
  });

  it("an unknown channel → 400 naming the running channels", async () => {
    const error = await failure(
      tool({ channel: "telegram", target: "42", action: "send", text: "hi" }),
      400,
      "E_INVALID_INPUT",
    );
    expect(error.message).toBe('unknown channel "telegram"; running channels: acme, webchat');
  });

  it.each([
    ["webchat", "lobby"],
    ["acme", "room-1"],
  ])("an unknown message id on %s → 404 E_MESSAGE_NOT_FOUND", async (channel, target) => {
    const error = await failure(
      tool({ channel, target, action: "react", messageId: "no-such-message", emoji: "thumbsup" }),
      404,
      "E_MESSAGE_NOT_FOUND",
    );
    expect(error.message).toContain("no-such-message");
  });

  it("a body over gateway.maxBodyBytes → 413, with a length header or streamed", async () => {
    const big = JSON.stringify({ channel: "webchat", target: "lobby", action: "send", text: "x".repeat(MAX_BODY) });
    const error = await failure(request("POST", "/v1/tools/message", { body: big }), 413, "E_INVALID_INPUT");
    expect(error.message).toBe(`request body exceeds ${MAX_BODY} bytes`);
    const bytes = new TextEncoder().encode(big);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 256) controller.enqueue(bytes.slice(at, at + 256));
        controller.close();
      },
    });
    await failure(request("POST", "/v1/tools/message", { body: streamed }), 413, "E_INVALID_INPUT");
    const small = await tool({ channel: "webchat", target: "lobby", action: "send", text: "x".repeat(100) });
    expect(small.status).toBe(200);
  });

  it("a body of megabytes over the limit: fetch reads the 413 and its message, not EPIPE (sent or streamed)", async () => {
    const size = 6 * 1024 * 1024;
    for (let round = 0; round < 3; round++) {
      const error = await failure(
        request("POST", "/v1/tools/message", { body: "x".repeat(size) }),
        413,
        "E_INVALID_INPUT",
      );
      expect(error.message).toBe(`request body exceeds ${MAX_BODY} bytes`);
      const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
      let sent = 0;
      const streamed = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= size) return controller.close();
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      await failure(request("POST", "/v1/tools/message", { body: streamed }), 413, "E_INVALID_INPUT");
    }
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  });

  it("a plugin that throws an untyped error → 502 E_PLATFORM with its message, and the channel restarts", async () => {
    const error = await failure(
      tool({ channel: "acme", target: "room-1", action: "send", text: "crash" }),
      502,
      "E_PLATFORM",
    );
    expect(error.message).toBe("Acme Chat failed: acme client bug: cannot read properties of undefined");
    await eventually(async () => {
      const { json } = await gateway.call("GET", "/v1/channels");
      const acme = json.channels.find((c: { id: string }) => c.id === "acme");
      expect(acme.status).toMatchObject({ state: "running", restarts: 1 });
    });
    const sent = await tool({ channel: "acme", target: "room-1", action: "send", text: "after the restart" });
    expect(await sent.json()).toEqual({ ok: true, result: { ok: true, action: "send", messageId: "acme-1" } });
  });

  it("an unknown route → 404 JSON; under /v1 the token is checked first", async () => {
    const error = await failure(fetch(`${gateway.url}/nope?token=${TOKEN}`), 404, "E_INVALID_INPUT");
    expect(error.message).toBe("no route GET /nope");
    expect(error.message).not.toContain(TOKEN);
    await failure(request("GET", "/v1/nothing-here", { auth: false }), 401, "E_AUTH");
    const authed = await failure(request("DELETE", "/v1/channels"), 404, "E_INVALID_INPUT");
    expect(authed.message).toBe("no route DELETE /v1/channels");
  });

  it("/hooks/<channel>/…: a registered route answers without the API token; unknown ones → 404", async () => {
    const ping = await fetch(`${gateway.url}/hooks/acme/ping`);
    expect(ping.status).toBe(200);
    expect(await ping.json()).toEqual({ pong: true, greeting: "hi" });
    for (const [method, path] of [
      ["GET", "/hooks/acme/nope"],
      ["POST", "/hooks/acme/ping"],
      ["GET", "/hooks/telegram/webhook"],
      ["GET", "/hooks/"],
    ] as const) {
      const error = await failure(fetch(`${gateway.url}${path}`, { method }), 404, "E_INVALID_INPUT");
      expect(error.message).toBe("no webhook is registered at this path");
    }
  });

  it("a webhook handler that throws → 500 without its message or stack", async () => {
    const error = await failure(fetch(`${gateway.url}/hooks/acme/explode`, { method: "POST" }), 500, "E_PLATFORM");
    expect(error.message).toBe("webhook handler failed");
  });
});
