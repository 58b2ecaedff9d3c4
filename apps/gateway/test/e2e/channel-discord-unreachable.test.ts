import { fileURLToPath } from "node:url";
import { createFakeTelegram, type FakeTelegram } from "@chorus/channel-telegram/testing";
import { closedPort, waitFor } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { runChorus } from "../support/loading-cli.js";
import { connectWebchat } from "../support/webchat-client.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-discord", import.meta.url));
const TELEGRAM = fileURLToPath(new URL("../../../../packages/channel-telegram", import.meta.url));
const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };
/** The bot token: it must show up nowhere (output, API, CLI). */
const CANARY = "canary-discord-e2e.MTA5ODc2NTQz.c4n4ry";

interface ChannelRow {
  id: string;
  status: { state: string; detail?: string; restarts: number; lastError?: string };
}

describe("Discord that cannot log in, through the real gateway process", () => {
  let gateway: GatewayProcess;
  let telegram: FakeTelegram;

  beforeAll(async () => {
    telegram = createFakeTelegram();
    await telegram.start();
    telegram.addChat({ id: ANN.id, type: "private", first_name: ANN.first_name });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN, TELEGRAM] },
        channels: {
          telegram: { ...telegram.config(), dmPolicy: "open" },
          discord: {
            token: CANARY,
            apiRoot: `http://127.0.0.1:${await closedPort()}/api`,
            retries: 0,
            timeoutMs: 1000,
            readyTimeoutMs: 500,
          },
        },
      },
      env: { CHORUS_RESTART_BACKOFF_MS: "300" },
    });
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await telegram?.close();
    if (gateway) await removeHome(gateway.home);
  });

  const discord = async () =>
    ((await gateway.call("GET", "/v1/channels")).json.channels as ChannelRow[]).find((c) => c.id === "discord");

  it("Telegram answers while Discord cannot log in", async () => {
    telegram.userSends({ chatId: ANN.id, from: ANN, text: "are you there?" });
    const reply = await waitFor(
      () => telegram.messagesIn(ANN.id).find((m) => m.from?.is_bot && m.text?.includes('you said "are you there?"')),
      { timeoutMs: 15_000, message: "the demo agent's answer on Telegram" },
    );
    expect(reply.text).toContain("are you there?");
    expect((await discord())?.status.state).not.toBe("running");
  });

  it("shows Discord degraded with the reason and keeps restarting it; the gateway and the webchat go on", async () => {
    // Three failed starts are well over readyTimeoutMs apart: a timer left by a failed login would have fired.
    const status = await waitFor(
      async () => {
        const row = await discord();
        return row && row.status.state === "degraded" && row.status.restarts >= 3 ? row.status : undefined;
      },
      { timeoutMs: 20_000, message: "Discord degraded after 3 restarts" },
    );
    expect(status.detail).toMatch(/^Discord unreachable \(login\): .*ECONNREFUSED/);
    expect(gateway.logs()).not.toContainEqual(
      expect.objectContaining({ msg: "channel code failed outside any call; restarting the channel" }),
    );
    expect(gateway.process.exitCode).toBeNull();
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);

    const ada = await connectWebchat(gateway.url, gateway.token, "Ada");
    try {
      const room = `dm:${ada.you.id}`;
      ada.send({ type: "join", room });
      await ada.waitForFrame((f) => f.type === "history" && f.room === room);
      ada.send({ type: "message", room, text: "still there?" });
      const reply = await ada.waitForFrame(
        (f) => f.type === "message" && f.message.sender?.id !== ada.you.id && f.message.text.includes("still there?"),
      );
      expect(reply.message.text).toContain('you said "still there?"');
    } finally {
      await ada.close();
    }
  });

  it("the token shows nowhere: not in the output, /v1/channels, chorus channels or chorus doctor", async () => {
    const options = { home: gateway.home };
    const remote = ["--url", gateway.url, "--token", gateway.token];
    const channels = await runChorus(["channels", ...remote], options);
    const doctor = await runChorus(["doctor", ...remote], options);
    expect(channels.stdout).toMatch(/discord/);
    expect(doctor.stdout).toMatch(/channel discord \(default\)/);
    const api = JSON.stringify((await gateway.call("GET", "/v1/channels")).json);
    for (const text of [gateway.output(), api, channels.stdout, channels.stderr, doctor.stdout, doctor.stderr]) {
      expect(text).not.toContain(CANARY);
    }
  });
});
