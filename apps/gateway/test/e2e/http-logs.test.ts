import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { makeHome } from "../support/loading-cli.js";
import { installIntoHome } from "../support/loading-plugins.js";
import { connectWebchat } from "../support/webchat-client.js";

const TOKEN = "log-test-token-5f1c0a9e7d3b";

describe("the API token never reaches the log, even at debug level (--verbose)", () => {
  let gateway: GatewayProcess;

  beforeAll(async () => {
    const home = await makeHome();
    await installIntoHome(home, "chorus-channel-acme");
    gateway = await startGatewayProcess({
      home,
      args: ["--verbose"],
      config: { gateway: { auth: { token: TOKEN } }, channels: { acme: {} } },
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    if (gateway) await removeHome(gateway.home);
  });

  it("after authenticated, refused and failing requests, a webchat turn and a channel crash", async () => {
    const bearer = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
    const tool = (body: unknown, headers: Record<string, string> = bearer) =>
      fetch(`${gateway.url}/v1/tools/message?token=${TOKEN}`, { method: "POST", headers, body: JSON.stringify(body) });
    expect((await fetch(`${gateway.url}/v1/channels`, { headers: bearer })).status).toBe(200);
    expect(
      (await fetch(`${gateway.url}/v1/channels`, { headers: { authorization: `Bearer ${TOKEN}-typo` } })).status,
    ).toBe(401);
    expect((await fetch(`${gateway.url}/nowhere?token=${TOKEN}`, { headers: bearer })).status).toBe(404);
    expect(
      (await fetch(`${gateway.url}/hooks/acme/explode?token=${TOKEN}`, { method: "POST", headers: bearer })).status,
    ).toBe(500);
    expect((await tool({ channel: "acme", target: "r", action: "send", text: "crash" })).status).toBe(502);
    expect((await tool({ channel: "acme", target: "r", action: "send", text: TOKEN, secret: TOKEN })).status).toBe(400);

    const ada = await connectWebchat(gateway.url, TOKEN, "Ada");
    const room = `dm:${ada.you.id}`;
    ada.send({ type: "join", room });
    await ada.waitForFrame((f) => f.type === "history" && f.room === room);
    ada.send({ type: "message", room, text: "hello, are you there?" });
    await ada.waitForFrame((f) => f.type === "message" && f.message.sender?.bot === true);
    await ada.close();

    // The process did log at debug level, the errors above included; then: no line holds the token.
    await eventually(() => {
      const messages = gateway.logs().map((line) => line.msg);
      expect(messages).toEqual(
        expect.arrayContaining(["inbound message", "webhook handler failed", "channel failed; restarting"]),
      );
      expect(gateway.logs().some((line) => line.level === 20)).toBe(true);
    });
    const logLines = gateway
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"));
    expect(logLines.filter((line) => line.includes(TOKEN))).toEqual([]);
    // A configured token is the operator's secret: not even the start banner repeats it.
    expect(gateway.output()).not.toContain(TOKEN);
    expect(gateway.output()).not.toContain("API token:");
    expect(gateway.output()).toContain(`Webchat: ${gateway.url}/ (open the link \`chorus token --webchat\` prints)`);
  });
});
