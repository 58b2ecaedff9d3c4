import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

const TOKEN = "host-check-test-token-0123456789";

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * One raw request with the headers given exactly (Host and Origin included, as a DNS-rebinding page
 * or the MCP conformance suite sends them; `fetch` may not set Host). An `upgrade: websocket`
 * request resolves with the 101 or the refusal.
 */
function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, headers, setHost: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: "" });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The conformance suite's dns-rebinding request: an MCP initialize POST to /mcp with a chosen Host, no token. */
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2024-11-05",
    capabilities: {},
    clientInfo: { name: "conformance-dns-rebinding-test", version: "1.0.0" },
  },
});
const mcpHeaders = (host: string, extra: Record<string, string> = {}) => ({
  "content-type": "application/json",
  host,
  accept: "application/json, text/event-stream",
  ...extra,
});

/** A 403 with the gateway's JSON error saying why. */
function refused(answer: Answer, says: RegExp): void {
  expect(answer.status).toBe(403);
  const body = JSON.parse(answer.body) as { ok: boolean; error: { code: string; message: string } };
  expect(body).toMatchObject({ ok: false, error: { code: "E_AUTH" } });
  expect(body.error.message).toMatch(says);
}

describe("Host and Origin: a gateway on loopback answers only its own names (DNS rebinding protection)", () => {
  let gateway: GatewayProcess;
  let local: string;

  beforeAll(async () => {
    gateway = await startGatewayProcess({
      config: {
        gateway: {
          auth: { token: TOKEN },
          publicUrl: "https://public.example.net",
          allowedOrigins: ["https://chat.example.com"],
        },
      },
    });
    local = new URL(gateway.url).host;
  }, 30_000);
  afterAll(async () => {
    await gateway?.stop();
    if (gateway) await removeHome(gateway.home);
  });

  const bearer = { authorization: `Bearer ${TOKEN}` };

  it("/mcp: the conformance suite's rebinding request is 403; the same with the local Host is not", async () => {
    refused(
      await send(gateway.url, "POST", "/mcp", mcpHeaders("evil.example.com"), initialize),
      /Host "evil.example.com"/,
    );
    // Without a token it is 401 (not 403: the Host was accepted); with it, the session starts.
    expect((await send(gateway.url, "POST", "/mcp", mcpHeaders(local), initialize)).status).toBe(401);
    const started = await send(gateway.url, "POST", "/mcp", mcpHeaders(local, bearer), initialize);
    expect(started.status).toBe(200);
    refused(
      await send(
        gateway.url,
        "POST",
        "/mcp",
        mcpHeaders(local, { ...bearer, origin: "http://evil.example.com" }),
        initialize,
      ),
      /Origin "http:\/\/evil.example.com"/,
    );
  });

  it("/v1: other names and other sites' pages are refused, the token notwithstanding; local names are served", async () => {
    refused(await send(gateway.url, "GET", "/v1/channels", { ...bearer, host: "evil.example.com:7800" }), /Host/);
    refused(
      await send(gateway.url, "GET", "/v1/channels", { ...bearer, host: local, origin: "https://evil.example.com" }),
      /Origin/,
    );
    refused(
      await send(gateway.url, "GET", "/v1/channels", { ...bearer, host: local, origin: "null" }),
      /Origin "null"/,
    );
    const port = new URL(gateway.url).port;
    for (const host of [local, `localhost:${port}`, `[::1]:${port}`, "127.0.0.1"]) {
      const answer = await send(gateway.url, "GET", "/v1/channels", { ...bearer, host, origin: `http://${host}` });
      expect({ host, status: answer.status }).toEqual({ host, status: 200 });
    }
  });

  it("gateway.publicUrl and gateway.allowedOrigins admit a deployment's own names and pages", async () => {
    for (const [host, origin] of [
      ["public.example.net", "https://public.example.net"],
      ["chat.example.com", "https://chat.example.com"],
    ] as const) {
      const answer = await send(gateway.url, "GET", "/v1/channels", { ...bearer, host, origin });
      expect({ host, status: answer.status }).toEqual({ host, status: 200 });
    }
    refused(
      await send(gateway.url, "GET", "/v1/channels", {
        ...bearer,
        host: "chat.example.com",
        origin: "http://chat.example.com",
      }),
      /Origin/,
    );
  });

  it("the webchat socket: an upgrade by another name or from another site is 403, a local one opens", async () => {
    const upgrade = (host: string, origin?: string) =>
      send(gateway.url, "GET", `/webchat/ws?token=${TOKEN}`, {
        host,
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        ...(origin ? { origin } : {}),
      });
    refused(await upgrade("evil.example.com"), /Host "evil.example.com"/);
    refused(await upgrade(local, "http://evil.example.com"), /Origin/);
    expect((await upgrade(local, gateway.url)).status).toBe(101);
    expect((await upgrade("chat.example.com", "https://chat.example.com")).status).toBe(101);
  });

  it("webhooks under /hooks/ answer any Host: platforms post to the public name", async () => {
    const answer = await send(gateway.url, "POST", "/hooks/nothing/here", { host: "hooks.example.org" }, "{}");
    expect(answer.status).toBe(404);
    expect(answer.body).toContain("no webhook is registered at this path");
  });
});
