import { MemoryStore } from "@chorus/channel-kit/state";
import { eventually, startChannel } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { zalouserChannel } from "./index.js";
import { SESSION_KEY } from "./session.js";
import { type LinkedChannel, linkedChannel } from "./test-support.test-util.js";
import { fakeWorld, TEAM } from "./testing/fixture.js";

const HINT = "Link the account again with `chorus channels login zalouser`.";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function linked(): Promise<LinkedChannel> {
  const world = await linkedChannel();
  closers.push(() => world.close());
  return world;
}

describe("linking", () => {
  it("starts unlinked saying how to link, refuses to send, and connects by itself once a login stored a session", async () => {
    const world = await fakeWorld();
    const store = new MemoryStore();
    const running = await startChannel(zalouserChannel, { config: world.config(), store });
    closers.push(async () => {
      await running.stop();
      await world.fake.close();
    });
    expect(running.instance.status()).toEqual({ state: "degraded", detail: `not linked yet. ${HINT}` });
    await expect(running.instance.send({ id: TEAM }, { text: "x" })).rejects.toMatchObject({
      code: "E_AUTH",
      hint: HINT,
    });
    expect(world.fake.logins).toBe(0);

    await world.link(store);
    await eventually(() => expect(running.instance.status().state).toBe("running"), { timeoutMs: 10_000 });
    await running.instance.send({ id: TEAM }, { text: "linked now" });
    expect(world.fake.botMessages(TEAM).map((m) => m.text)).toEqual(["linked now"]);
  });

  it("a stored session Zalo no longer accepts (error 102) stops the channel with the hint, without a crash", async () => {
    const world = await fakeWorld();
    const store = new MemoryStore();
    await world.link(store);
    world.fake.endSessions();
    const running = await startChannel(zalouserChannel, { config: world.config(), store });
    closers.push(async () => {
      await running.stop();
      await world.fake.close();
    });
    expect(running.instance.status()).toEqual({
      state: "stopped",
      detail: `Zalo refused the saved session (error 102: The session key was improperly submitted or has reached its timeout. Direct the user to log in again to obtain another key). ${HINT}`,
    });
    // It knocks once, not in a loop.
    const logins = world.fake.server.requestsTo("GET", "/api/login/getLoginInfo").length;
    await new Promise((resolve) => setImmediate(resolve));
    expect(world.fake.server.requestsTo("GET", "/api/login/getLoginInfo")).toHaveLength(logins);
  });

  it("a damaged stored session stops the channel naming what is wrong", async () => {
    const world = await fakeWorld();
    const store = new MemoryStore();
    await store.set(SESSION_KEY, { imei: "x" });
    const running = await startChannel(zalouserChannel, { config: world.config(), store });
    closers.push(async () => {
      await running.stop();
      await world.fake.close();
    });
    expect(running.instance.status().state).toBe("stopped");
    expect(running.instance.status().detail).toMatch(/the stored Zalo session cannot be read \(userAgent: .*cookies/);
  });
});

describe("when Zalo ends the session while running", () => {
  it("stops with the hint (listener closed 3003, sends refused with E_AUTH), then a new login connects by itself", async () => {
    const world = await linked();
    world.fake.endSessions();
    await eventually(() => expect(world.running.instance.status().state).toBe("stopped"));
    expect(world.running.instance.status().detail).toBe(
      `Zalo ended this session: the account logged in elsewhere (listener closed 3003). ${HINT}`,
    );
    expect(world.running.logs.at("error", true).some((r) => r.message.includes(HINT))).toBe(true);
    await expect(world.running.instance.send({ id: TEAM }, { text: "x" })).rejects.toMatchObject({ code: "E_AUTH" });

    await world.fake.link(world.store);
    await eventually(() => expect(world.running.instance.status().state).toBe("running"), { timeoutMs: 10_000 });
    await world.running.instance.send({ id: TEAM }, { text: "back" });
    expect(world.fake.botMessages(TEAM).map((m) => m.text)).toEqual(["back"]);
  });

  it("a send answered with error 102 stops the channel with the hint", async () => {
    const world = await linked();
    for (const session of world.fake.state.sessions.values()) session.revoked = true;
    await expect(world.running.instance.send({ id: TEAM }, { text: "x" })).rejects.toMatchObject({
      code: "E_AUTH",
      hint: HINT,
      message: expect.stringContaining("Zalo ended the session"),
    });
    expect(world.running.instance.status().state).toBe("stopped");
  });
});

describe("the session in the store", () => {
  it("keeps the cookies Zalo renews, and none of them, nor the imei, reaches a log line or the status", async () => {
    const world = await linked();
    const stored = await world.store.get<{ cookies: { key: string }[] }>(SESSION_KEY);
    expect(stored?.cookies.map((c) => c.key).sort()).toEqual(["zpsid", "zpw_sek"]);
    const text = `${world.running.logs.text()} ${JSON.stringify(world.running.instance.status())}`;
    for (const secret of world.secrets) expect(text).not.toContain(secret);
    expect(Buffer.byteLength(JSON.stringify(stored))).toBeLessThan(4_096);
  });
});
