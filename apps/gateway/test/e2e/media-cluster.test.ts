import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createFakeTelegram, type FakeTelegram, platformMedium } from "@chorus/channel-telegram/testing";
import { eventually, waitFor } from "@chorus/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig, freshPostgresDatabase } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { sameBytes, solidPng } from "../support/media-files.js";

const TELEGRAM = fileURLToPath(new URL("../../../../packages/channel-telegram", import.meta.url));
const CHAT = 501;
const MB = 1024 * 1024;

interface ChannelsAnswer {
  channels: { id: string; holder: string | null }[];
}

/**
 * The media store on PostgreSQL is the cluster's (DESIGN §2.6, "The store keeps media … a table for
 * PostgreSQL, so every gateway of a cluster can serve them"): two `chorus start` processes on one
 * database; a medium uploaded to one with `POST /v1/media` is sent by the other, the gateway holding
 * the Telegram account's lease, byte for byte.
 */
describe("two gateways on one PostgreSQL share their media", () => {
  let telegram: FakeTelegram | undefined;
  let model: FakeOpenAI | undefined;
  const gateways: GatewayProcess[] = [];
  afterAll(async () => {
    for (const gateway of gateways) await gateway.stop("SIGKILL");
    await model?.close();
    await telegram?.close();
    for (const gateway of gateways) await removeHome(gateway.home);
  });

  it("uploaded to the gateway without the Telegram lease, sent by the one holding it", async () => {
    const url = await freshPostgresDatabase("media_cluster");
    telegram = createFakeTelegram();
    await telegram.start();
    telegram.addChat({ id: CHAT, type: "private", first_name: "Ann" });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    const config = {
      plugins: { load: [TELEGRAM] },
      state: { backend: "postgres", url },
      channels: { telegram: { ...telegram.config(), dmPolicy: "open" } },
      agents: { list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test" }) }] },
    };
    for (let i = 0; i < 2; i++) gateways.push(await startGatewayProcess({ config }));

    const holds = async (gateway: GatewayProcess) => {
      const { json } = (await gateway.call("GET", "/v1/channels")) as { json: ChannelsAnswer };
      return json.channels.find((c) => c.id === "telegram")?.holder?.endsWith(`:${gateway.process.pid}`) === true;
    };
    const holder = await waitFor(
      async () => {
        for (const gateway of gateways) if (await holds(gateway)) return gateway;
        return undefined;
      },
      { timeoutMs: 20_000, message: "a gateway holding the Telegram lease" },
    );
    const other = gateways.find((g) => g !== holder) as GatewayProcess;
    expect(await holds(other)).toBe(false);

    // Larger than one chunk of the PostgreSQL store, and a picture.
    const archive = new Uint8Array(randomBytes(5 * MB));
    const picture = solidPng([90, 60, 200]);
    const upload = async (bytes: Uint8Array, filename: string) => {
      const answer = await fetch(`${other.url}/v1/media?filename=${filename}`, {
        method: "POST",
        headers: { authorization: `Bearer ${other.token}` },
        body: Buffer.from(bytes),
      });
      expect(answer.status).toBe(200);
      return (await answer.json()) as { mediaId: string; size: number; kind: string };
    };
    const stored = [await upload(archive, "archive.bin"), await upload(picture, "picture.png")];
    expect(stored.map((s) => [s.kind, s.size])).toEqual([
      ["file", archive.byteLength],
      ["image", picture.byteLength],
    ]);

    const answer = await holder.call("POST", "/v1/tools/message", {
      channel: "telegram",
      target: String(CHAT),
      action: "send",
      text: "From the other gateway",
      media: stored.map(({ mediaId }) => ({ mediaId })),
    });
    expect(answer.status).toBe(200);
    expect(answer.json.result).toMatchObject({ ok: true, sentAs: ["file", "image"] });

    const fake = telegram;
    await eventually(() => expect(fake.botMessages(CHAT)).toHaveLength(2), { timeoutMs: 10_000 });
    const shown = fake
      .botMessages(CHAT)
      .sort((a, b) => a.message_id - b.message_id)
      .map((message) => platformMedium(fake.files, message));
    expect(shown.map((m) => [m?.kind, m?.filename, m?.caption])).toEqual([
      ["file", "archive.bin", "From the other gateway"],
      ["image", "picture.png", undefined],
    ]);
    expect(sameBytes(shown[0]?.bytes, archive)).toBe(true);
    expect(sameBytes(shown[1]?.bytes, picture)).toBe(true);
  });
});
