import { createHash } from "node:crypto";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleMedium } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GATEWAY_DIR, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { connectWebchat, type Frame } from "../support/webchat-client.js";

describe("chorus start with no config: webchat + the demo agent", () => {
  let gateway: GatewayProcess;

  beforeAll(async () => {
    const home = await mkdtemp(join(tmpdir(), "chorus-noconfig-"));
    gateway = await startGatewayProcess({ home, noConfig: true, args: ["--port", "0"] });
  });
  afterAll(async () => {
    await gateway?.stop();
    if (gateway) await removeHome(gateway.home);
  });

  it("prints the webchat URL with the token and serves the page", async () => {
    expect(gateway.output()).toContain(`Webchat: ${gateway.url}/?token=${gateway.token}`);
    expect(gateway.output()).toContain("starting the webchat with the offline demo agent");
    const page = await fetch(`${gateway.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await page.text()).toContain("<title>Chorus</title>");
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  });

  it("serves the page script the build made from src/webchat/page/ (dist/bin/webchat-page.js), allowed by its CSP hash", async () => {
    const built = join(GATEWAY_DIR, "dist", "bin", "webchat-page.js");
    const script = await readFile(built, "utf8");
    const { sources } = JSON.parse(await readFile(`${built}.map`, "utf8")) as { sources: string[] };
    expect(sources.length).toBeGreaterThan(5);
    expect(sources.filter((source) => !source.startsWith("../../src/webchat/page/"))).toEqual([]);
    expect(sources).toContain("../../src/webchat/page/main.ts");
    const page = await fetch(`${gateway.url}/`);
    const html = await page.text();
    expect(/<script>([\s\S]*)<\/script>/.exec(html)?.[1]).toBe(script);
    const hash = createHash("sha256").update(script, "utf8").digest("base64");
    expect(page.headers.get("content-security-policy")).toContain(`script-src 'sha256-${hash}'`);
  });

  it("the demo agent reacts to a message and answers it; the API removes the reaction", async () => {
    const ada = await connectWebchat(gateway.url, gateway.token, "Ada");
    const room = `dm:${ada.you.id}`;
    ada.send({ type: "join", room });
    await ada.waitForFrame((f) => f.type === "history" && f.room === room);
    ada.send({ type: "message", room, text: "hello there" });
    const mine = await ada.waitForFrame((f) => f.type === "message" && f.message.text === "hello there");
    const messageId: string = mine.message.id;

    const reply = await ada.waitForFrame((f) => f.type === "message" && f.message.sender?.id !== ada.you.id);
    expect(reply.message.text).toContain('Demo agent (offline): you said "hello there"');
    const reacted = await ada.waitForFrame(
      (f: Frame) => f.type === "reactions" && f.messageId === messageId && f.reactions.length > 0,
    );
    expect(reacted.reactions).toEqual([expect.objectContaining({ emoji: "👍" })]);

    const listed = await gateway.call("POST", "/v1/tools/message", {
      channel: "webchat",
      target: room,
      action: "reactions",
      messageId,
    });
    expect(listed.json.result.reactions).toEqual([{ emoji: "👍", count: 1, me: true }]);

    const removed = await gateway.call("POST", "/v1/tools/message", {
      channel: "webchat",
      target: room,
      action: "react",
      messageId,
      emoji: "thumbsup",
      remove: true,
    });
    expect(removed).toEqual({ status: 200, json: { ok: true, result: expect.objectContaining({ op: "remove" }) } });
    await ada.waitForFrame((f) => f.type === "reactions" && f.messageId === messageId && f.reactions.length === 0);
    await ada.close();
  });

  it("a photo uploaded over the webchat's route and sent over the socket reaches the demo agent, which names it", async () => {
    const ada = await connectWebchat(gateway.url, gateway.token, "Ada");
    const room = `dm:${ada.you.id}`;
    ada.send({ type: "join", room });
    await ada.waitForFrame((f) => f.type === "history" && f.room === room);
    const png = sampleMedium("image");
    const auth = { authorization: `Bearer ${gateway.token}` };
    const begun = await fetch(`${gateway.url}/hooks/webchat/upload`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ filename: "dot.png", mime: png.mime, size: png.bytes.byteLength }),
    });
    expect(begun.status).toBe(201);
    const { id } = (await begun.json()) as { id: string };
    const piece = await fetch(`${gateway.url}/hooks/webchat/upload?id=${id}&offset=0`, {
      method: "PUT",
      headers: auth,
      body: png.bytes,
    });
    expect(await piece.json()).toEqual({ ok: true, received: png.bytes.byteLength, complete: true });
    ada.send({ type: "message", room, text: "", attachments: [id] });
    const mine = await ada.waitForFrame((f) => f.type === "message" && f.message.attachments?.[0]?.id === id);
    expect(mine.message.attachments[0]).toMatchObject({ kind: "image", mime: "image/png", filename: "dot.png" });
    const reply = await ada.waitForFrame(
      (f) => f.type === "message" && f.message.sender?.id !== ada.you.id && /I got your photo/.test(f.message.text),
      20_000,
    );
    expect(reply.message.text).toContain(`I got your photo (dot.png, ${png.bytes.byteLength} bytes)`);
    const served = await fetch(`${gateway.url}${mine.message.attachments[0].url}`, { headers: auth });
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png.bytes);
    await ada.close();
  });

  it("refuses API calls without the token and names bad input", async () => {
    const anonymous = await fetch(`${gateway.url}/v1/channels`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      ok: false,
      error: { code: "E_AUTH", message: expect.stringContaining("bearer") },
    });
    const bad = await gateway.call("POST", "/v1/tools/message", { channel: "webchat", action: "wave" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("E_INVALID_INPUT");
    expect(bad.json.error.message).toContain("action");
    const channels = await gateway.call("GET", "/v1/channels");
    expect(channels.json.channels).toEqual([
      expect.objectContaining({
        id: "webchat",
        account: "default",
        status: expect.objectContaining({ state: "running" }),
      }),
    ]);
  });
});
