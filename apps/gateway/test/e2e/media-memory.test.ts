import { randomBytes } from "node:crypto";
import { eventually, sampleMedium } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";
import { sample } from "../support/metrics-sample.js";

const MB = 1024 * 1024;
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const same = (a: Uint8Array | undefined, b: Uint8Array) =>
  a !== undefined && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** Media sent on the testkit's memory channel, whose platform keeps every uploaded byte (DESIGN §2.6). */
describe("sending media to the memory platform through the real gateway", () => {
  let world: ModelWorld | undefined;
  let gateway: GatewayProcess | undefined;

  afterEach(async () => {
    await gateway?.stop();
    await world?.close();
    if (gateway) await removeHome(gateway.home);
    gateway = undefined;
    world = undefined;
  });

  it("POST /v1/tools/message: an upload, inline data and a location reach the platform byte for byte", async () => {
    world = await createModelWorld();
    gateway = await startGatewayProcess({ config: world.config() });
    const archive = randomBytes(2 * MB);
    const uploaded = await fetch(`${gateway.url}/v1/media?filename=archive.bin`, {
      method: "POST",
      headers: { authorization: `Bearer ${gateway.token}` },
      body: archive,
    });
    const { mediaId } = (await uploaded.json()) as { mediaId: string };
    const png = sampleMedium("image").bytes;
    const answer = await gateway.call("POST", "/v1/tools/message", {
      channel: "memory",
      target: "family",
      action: "send",
      text: "Holiday",
      media: [{ data: base64(png), filename: "beach.png" }, { mediaId }],
      location: { latitude: 43.2965, longitude: 5.3698, name: "Vieux-Port" },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.result).toMatchObject({ sentAs: ["image", "file", "location"] });
    const [album, pin] = answer.json.result.messageIds as string[];
    const media = world.platform.messageMedia(album as string);
    expect(media.media.map((m) => [m.kind, m.filename, m.caption])).toEqual([
      ["image", "beach.png", "Holiday"],
      ["file", "archive.bin", undefined],
    ]);
    expect(same(media.media[0]?.bytes, png)).toBe(true);
    expect(same(media.media[1]?.bytes, archive)).toBe(true);
    expect(world.platform.messageMedia(pin as string).location).toMatchObject({ latitude: 43.2965, longitude: 5.3698 });
    const metrics = await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${gateway.token}` } });
    expect(sample(await metrics.text(), 'chorus_media_bytes_total{channel="memory",direction="out"}')).toBe(
      png.byteLength + archive.byteLength,
    );
  });

  it("the agent's message tool sends media in a turn", async () => {
    world = await createModelWorld();
    const pdf = sampleMedium("file").bytes;
    world.model.script(
      {
        toolCalls: [
          {
            name: "message",
            arguments: { action: "send", text: "The report", media: [{ data: base64(pdf), filename: "q3.pdf" }] },
          },
        ],
      },
      { text: "Sent it." },
    );
    gateway = await startGatewayProcess({ config: world.config() });
    world.platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "Send me the Q3 report?" });
    await eventually(() => expect(world?.platform.botMessagesIn("dm-ann").map((m) => m.text)).toContain("Sent it."), {
      timeoutMs: 15_000,
    });
    const withMedia = world.platform.botMessagesIn("dm-ann").find((m) => (m.media ?? []).length > 0);
    const media = world.platform.messageMedia(withMedia?.id as string);
    expect(media.media.map((m) => [m.kind, m.filename, m.caption])).toEqual([["file", "q3.pdf", "The report"]]);
    expect(same(media.media[0]?.bytes, pdf)).toBe(true);
    const toolResult = world.model.requests[1]?.messages.find((m) => m.role === "tool") as { content: string };
    expect(JSON.parse(toolResult.content)).toMatchObject({ ok: true, action: "send", sentAs: ["file"] });
  });
});
