import { Agent, request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { makeHome, runChorus } from "../support/loading-cli.js";
import { installIntoHome } from "../support/loading-plugins.js";

const TOKEN = "http-order-test-token-0123456789";
const MAX_BODY = 1024;

/** One request on `agent` (a keep-alive socket pool): status, headers, body, and which socket carried it. */
function send(
  agent: Agent,
  url: string,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string; socket: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}${path}`,
      {
        method,
        agent,
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            socket: (req.socket as { localPort?: number }).localPort ?? 0,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("HTTP: a refused body closes its connection; argument errors come before any lookup", () => {
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

  it("413 says Connection: close, and the client's next request on a keep-alive agent succeeds", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = JSON.stringify({
        channel: "webchat",
        target: "lobby",
        action: "send",
        text: "x".repeat(MAX_BODY * 64),
      });
      const refused = await send(agent, gateway.url, "POST", "/v1/tools/message", big);
      expect(refused.status).toBe(413);
      expect(refused.headers.connection).toBe("close");
      for (let i = 0; i < 3; i++) {
        const next = await send(agent, gateway.url, "GET", "/healthz");
        expect(next.status).toBe(200);
      }
    } finally {
      agent.destroy();
    }
  });

  it.each([
    [
      "react with remove: true and an empty emoji",
      { action: "react", messageId: "m1", emoji: "", remove: true },
      400,
      "E_EMOJI_REQUIRED",
    ],
    ["react with neither emoji nor clearAll", { action: "react", messageId: "m1" }, 400, "E_EMOJI_REQUIRED"],
  ])("%s, on a message nobody knows: the argument error, not E_MESSAGE_NOT_FOUND", async (_, call, status, code) => {
    const reply = await gateway.call("POST", "/v1/tools/message", { channel: "acme", target: "room-1", ...call });
    expect({ status: reply.status, code: reply.json.error?.code }).toEqual({ status, code });
  });

  it("the CLI takes the same path: chorus message react with remove and no emoji", async () => {
    const run = await runChorus(
      [
        "message",
        "react",
        "--channel",
        "acme",
        "--target",
        "room-1",
        "--message-id",
        "m1",
        "--emoji",
        "",
        "--remove",
        "--url",
        gateway.url,
        "--token",
        TOKEN,
      ],
      { home: gateway.home },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("E_EMOJI_REQUIRED");
  });
});
