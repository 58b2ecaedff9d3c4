import { isChorusError } from "@chorus/core";
import { eventually, type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { slackChannel } from "./index.js";
import { createFakeSlack, type FakeSlack } from "./testing/index.js";

const ANN = "U0ANN00001";
const TEAM = "C0TEAM0001";
let fake: FakeSlack;
let running: RunningChannel | undefined;

beforeEach(async () => {
  fake = createFakeSlack({ mode: "socket" });
  await fake.start();
  fake.addUser({ id: ANN, name: "ann", real_name: "Ann Lee" });
  fake.addConversation({ id: TEAM, type: "channel", name: "team", members: [fake.bot.id, ANN] });
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await fake.close();
});

const start = async (extra: Record<string, unknown> = {}) => {
  running = await startChannel(slackChannel, { config: fake.config({ timeoutMs: 1_000, ...extra }) });
  return running;
};
const texts = (r: RunningChannel) => r.events.map((e) => (e.type === "message" ? e.text : e.type));

describe("Socket Mode", () => {
  it("opens the connection with the app token at apiUrl and registers no webhook", async () => {
    const r = await start();
    const [open] = fake.server.requestsTo("POST", "/api/apps.connections.open");
    expect(open?.headers.authorization).toBe(`Bearer ${fake.appToken}`);
    expect(fake.socket.connections).toBe(1);
    expect(r.routes).toEqual([]);
    expect(r.instance.status()).toEqual({
      state: "running",
      detail: "connected as @chorus in Fake Workspace; Socket Mode",
    });
  });

  it("acknowledges every envelope, also ones it does not follow and ones it cannot read", async () => {
    const r = await start();
    await fake.userSends({ channel: TEAM, user: ANN, text: `<@${fake.bot.id}> hi` });
    expect(await fake.socket.deliver({ type: "event_callback", event: { type: "member_joined_channel" } })).toBe(true);
    await fake.deliverUnparseable();
    const acks = fake.socket.received.filter((f) => typeof f.envelope_id === "string");
    expect(acks).toHaveLength(4);
    expect(texts(r)).toEqual(["@Chorus hi"]);
    expect(r.duplicates).toHaveLength(1);
    expect(r.logs.at("warn").map((l) => l.message)).toEqual([
      expect.stringMatching(/^slack: skipped a delivery it cannot read: unreadable message event: channel:/),
    ]);
  });

  it("reconnects at once when Slack sends disconnect, without a degraded status", async () => {
    const r = await start();
    fake.socket.disconnect("refresh_requested");
    await eventually(() => expect(fake.socket.accepted).toBe(2));
    await eventually(() => expect(fake.socket.connections).toBe(1));
    await fake.userSends({ channel: TEAM, user: ANN, text: "after the refresh" });
    expect(texts(r)).toEqual(["after the refresh"]);
    expect(r.logs.at("info").map((l) => l.message)).toContain(
      "slack: Socket Mode: Slack asked to reconnect (refresh_requested)",
    );
    expect(r.logs.at("warn")).toEqual([]);
  });

  it("after a network drop is degraded with the reason, reconnects with backoff, and gets what was not acknowledged", async () => {
    const r = await start({ reconnectMinMs: 200, reconnectMaxMs: 400 });
    fake.fault("close");
    await eventually(() => expect(r.instance.status().state).toBe("degraded"));
    expect(r.instance.status().detail).toBe("the Socket Mode connection was lost");
    const delivered = fake.userSends({ channel: TEAM, user: ANN, text: "sent while down" });
    // Reconnect attempts meet the same outage: apps.connections.open fails again and again.
    const opens = () => fake.server.requestsTo("POST", "/api/apps.connections.open").length;
    await eventually(() => expect(opens()).toBeGreaterThan(2), { timeoutMs: 3_000 });
    expect(r.instance.status().state).toBe("degraded");
    fake.heal();
    await delivered;
    expect(texts(r)).toEqual(["sent while down"]);
    await eventually(() => expect(r.instance.status().state).toBe("running"));
    expect(r.logs.at("info").map((l) => l.message)).toContain("slack: Socket Mode reconnected");
    expect(r.logs.at("warn").length).toBeGreaterThan(0);
  });

  it("fails to start with E_AUTH naming the app token when Slack refuses it", async () => {
    fake.revoked.add(fake.appToken);
    const error = await start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isChorusError(error) && error.code).toBe("E_AUTH");
    expect((error as Error & { hint?: string }).hint).toMatch(/appToken/);
    expect(String((error as Error).message)).not.toContain(fake.appToken);
  });

  it("gives up a connection that never says hello, with a typed error", async () => {
    fake.socket.fault("hang");
    const error = await start({ timeoutMs: 300 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isChorusError(error) && error.message).toMatch(/no hello within 300 ms/);
  });
});
