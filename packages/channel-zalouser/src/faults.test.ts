import { eventually, faults } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LinkedChannel, linkedChannel } from "./test-support.test-util.js";
import { ANN, TEAM } from "./testing/fixture.js";

let world: LinkedChannel;
beforeEach(async () => {
  world = await linkedChannel();
  // The group is known before the faults, so each send is one request to /api/group/sendmsg.
  await world.running.instance.send({ id: TEAM }, { text: "warm up" });
});
afterEach(() => world.close());

const sends = () => world.fake.server.requestsTo("POST", "/api/group/sendmsg");
const statuses = () => sends().map((r) => r.status);

describe("HTTP faults on a send", () => {
  it("waits out a short 429 Retry-After, then sends once", async () => {
    world.fake.server.inject(faults.rateLimit({ method: "POST", path: "/api/group/sendmsg" }, 1));
    await world.running.instance.send({ id: TEAM }, { text: "after the rate limit" });
    expect(statuses()).toEqual([200, 429, 200]);
    const [, limited, sent] = sends();
    expect((sent?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(900);
    expect(world.fake.botMessages(TEAM).map((m) => m.text)).toEqual(["warm up", "after the rate limit"]);
  });

  it("fails at once with E_RATE_LIMITED when Zalo asks to wait longer than maxRetryAfterMs", async () => {
    world.fake.server.inject(faults.rateLimit({ method: "POST", path: "/api/group/sendmsg" }, 60));
    await expect(world.running.instance.send({ id: TEAM }, { text: "x" })).rejects.toMatchObject({
      code: "E_RATE_LIMITED",
      retryable: true,
      details: { retryAfterMs: 60_000 },
    });
    expect(statuses()).toEqual([200, 429]);
  });

  it("retries after a 5xx (Zalo refused it, nothing was sent) and sends once", async () => {
    world.fake.server.inject(faults.serverError({ method: "POST", path: "/api/group/sendmsg" }, { status: 502 }));
    await world.running.instance.send({ id: TEAM }, { text: "after the 502" });
    expect(statuses()).toEqual([200, 502, 200]);
    expect(world.fake.botMessages(TEAM)).toHaveLength(2);
  });

  it("does not send again after a dropped connection (it may have arrived): a retryable E_PLATFORM", async () => {
    world.fake.server.inject(faults.reset({ method: "POST", path: "/api/group/sendmsg" }));
    await expect(world.running.instance.send({ id: TEAM }, { text: "lost" })).rejects.toMatchObject({
      code: "E_PLATFORM",
      retryable: true,
      message: expect.stringContaining("Zalo unreachable (send a message to"),
    });
    expect(statuses()).toEqual([200, 0]);
  });

  it("a reaction's retries follow the same rules: a 503 is retried", async () => {
    const ref = await world.running.instance.send({ id: TEAM }, { text: "react" });
    world.fake.server.inject(faults.serverError({ method: "POST", path: "/api/group/reaction" }, { status: 503 }));
    await world.react(ref, { emoji: "👍" });
    expect(world.fake.botReactions(ref.messageId)).toEqual(["/-strong"]);
  });
});

describe("the listener", () => {
  it("reconnects with backoff after the connection dropped, saying so meanwhile, and receives again", async () => {
    await world.fake.server.dropWebSockets();
    const warning = await eventually(() => {
      const found = world.running.logs.at("warn", true).find((r) => r.message.includes("listener disconnected"));
      expect(found).toBeDefined();
      return found;
    });
    expect(warning?.message).toMatch(/zalouser: the listener disconnected \(code 1006\); reconnecting in \d+ ms/);
    await eventually(() => expect(world.running.instance.status().state).toBe("running"));
    const after = await world.fake.personSends({ from: ANN.id, group: TEAM, text: "back again" });
    expect((await world.inbound(after.msgId)).text).toBe("back again");
    expect(world.fake.listener.connections).toHaveLength(1);
  });

  it("says so when another Zalo Web connection of the session takes the listener over (cmd 3000), and reconnects", async () => {
    const seen: string[] = [];
    world.fake.anotherConnection();
    await eventually(() => {
      const status = world.running.instance.status();
      if (status.detail) seen.push(status.detail);
      expect(seen.some((d) => d.includes("another Zalo Web connection of this session took over"))).toBe(true);
    });
    await eventually(() => expect(world.running.instance.status().state).toBe("running"));
  });

  it("pings Zalo at the interval getServerInfo sets", async () => {
    await world.close();
    world = await linkedChannel({ fake: { pingIntervalMs: 100 } });
    await eventually(() => expect(world.fake.listener.pings.length).toBeGreaterThanOrEqual(2));
    expect(world.fake.listener.pings[0]).toEqual({ eventId: expect.any(Number) });
  });
});
