import { Redactor } from "@chorus/channel-kit";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { type ProbeRoutesOptions, registerProbeRoutes } from "./probes.js";
import { Readiness, type ReadinessAccount, type ReadinessOptions } from "./readiness.js";

const TOKEN = "probe-token-0123456789abcdef";

const account = (over: Partial<ReadinessAccount> & { state?: string; detail?: string } = {}): ReadinessAccount => ({
  id: "telegram",
  account: "default",
  status: { state: over.state ?? "running", ...(over.detail ? { detail: over.detail } : {}) },
  holder: over.holder ?? "gw-a",
  leased: over.leased ?? false,
  ...(over.id ? { id: over.id } : {}),
});

function readiness(over: Partial<ReadinessOptions> = {}): Readiness {
  return new Readiness({
    probeState: async () => 1,
    channels: () => [account()],
    gatewayId: "gw-a",
    refusals: () => ({ count: 0 }),
    windowMinutes: 15,
    redact: (text) => new Redactor().text(text),
    ...over,
  });
}

describe("Readiness", () => {
  it("ready when the state answers and every account runs, here or on the gateway holding its lease", async () => {
    const ready = readiness({
      channels: () => [account(), account({ id: "whatsapp", state: "stopped", leased: true, holder: "gw-b" })],
    });
    expect(await ready.check()).toMatchObject({
      ready: true,
      state: { ready: true },
      notReady: [],
      channels: [
        { channel: "telegram", ready: true, state: "running" },
        { channel: "whatsapp", ready: true, state: "stopped", holder: "gw-b" },
      ],
    });
  });

  it("names each part that is not ready and why: a degraded or starting account, a lease nobody holds", async () => {
    const report = await readiness({
      channels: () => [
        account({ state: "degraded", detail: "getUpdates failed: 502 Bad Gateway" }),
        account({ id: "slack", state: "starting" }),
        account({ id: "whatsapp", state: "stopped", leased: true, holder: "" }),
      ],
      refusals: (channel) =>
        channel === "slack"
          ? {
              count: 3,
              lastAt: Date.UTC(2030, 0, 1),
              lastError: "could not connect to postgres://chorus:hunter2@db:5432/x",
            }
          : { count: 0 },
    }).check();
    expect(report.ready).toBe(false);
    expect(report.notReady).toEqual([
      "channel telegram (default) is degraded: getUpdates failed: 502 Bad Gateway",
      "channel slack (default) is starting",
      "channel whatsapp (default) is stopped: no gateway holds its lease",
    ]);
    expect(report.channels[1]?.refused).toEqual({
      windowMinutes: 15,
      count: 3,
      lastAt: "2030-01-01T00:00:00.000Z",
      lastError: "could not connect to postgres://[redacted]@db:5432/x",
    });
  });

  it("a state that does not answer in time is not ready; the answer is reused, and a hung statement is not asked again", async () => {
    let asked = 0;
    const ready = readiness({
      probeState: () => {
        asked++;
        return new Promise(() => {});
      },
      timeoutMs: 20,
      cacheMs: 10_000,
    });
    const first = await ready.check(1_000);
    expect(first).toMatchObject({
      ready: false,
      state: { ready: false, detail: "unreachable: no answer within 20 ms" },
    });
    expect(first.notReady).toEqual(["state: unreachable: no answer within 20 ms"]);
    expect((await ready.check(2_000)).state).toEqual(first.state);
    // Past the cache, the statement still hangs: no second one on top of it.
    expect((await ready.check(20_000)).state).toEqual({ ready: false, detail: "unreachable: no answer for 19000 ms" });
    expect(asked).toBe(1);
  });

  it("a state error is said without the credentials a URL in it carries", async () => {
    const ready = readiness({
      probeState: () =>
        Promise.reject(new Error("connect ECONNREFUSED postgres://chorus:hunter2@10.0.0.5:5432/chorus")),
    });
    const { state } = await ready.check();
    expect(state).toEqual({
      ready: false,
      detail: "unreachable: connect ECONNREFUSED postgres://[redacted]@10.0.0.5:5432/chorus",
    });
  });

  it("a refused commit's error is said without a configured secret, though the answer is 200 (ready)", async () => {
    const token = "123456:AAH-secret-bot-token-value";
    const redactor = new Redactor([token]);
    const ready = readiness({
      refusals: () => ({ count: 1, lastAt: 0, lastError: `commit refused for bot ${token}` }),
      redact: (text) => redactor.text(text),
    });
    const report = await ready.check();
    expect(report.ready).toBe(true);
    expect(JSON.stringify(report)).not.toContain(token);
    expect(report.channels[0]?.refused.lastError).toBe("commit refused for bot [redacted]");
  });
});

describe("registerProbeRoutes", () => {
  const app = (over: Partial<ProbeRoutesOptions> = {}) => {
    const hono = new Hono();
    registerProbeRoutes(hono, {
      token: TOKEN,
      readiness: () => readiness().check(),
      metrics: async () => ({ contentType: "text/plain; version=0.0.4; charset=utf-8", body: "chorus_ready 1\n" }),
      ...over,
    });
    return hono;
  };

  it("/readyz: 200 when ready, 503 with what is not, no token needed", async () => {
    const ok = await app().request("/readyz");
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ ok: true, ready: true });
    const down = await app({
      readiness: () => readiness({ channels: () => [account({ state: "degraded", detail: "offline" })] }).check(),
    }).request("/readyz");
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      ok: false,
      ready: false,
      error: { code: "E_DISABLED", message: "not ready: channel telegram (default) is degraded: offline" },
    });
  });

  it("/metrics needs the bearer token unless public", async () => {
    expect((await app().request("/metrics")).status).toBe(401);
    expect((await app().request("/metrics", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const scraped = await app().request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(await scraped.text()).toBe("chorus_ready 1\n");
    expect((await app({ metricsPublic: true }).request("/metrics")).status).toBe(200);
  });

  it("a 413 on a registered webhook is reported with its channel; on any other path it is not (no invented labels)", async () => {
    const reported: string[] = [];
    const hono = app({
      hooks: {
        find: (method, path) =>
          method === "POST" && path === "/hooks/nextcloud/default" ? () => new Response() : undefined,
      },
      onTooLarge: (channel, path) => reported.push(`${channel} ${path}`),
    });
    hono.all("/hooks/*", (c) => c.text("too large", 413));
    expect((await hono.request("/hooks/nextcloud/default", { method: "POST", body: "x" })).status).toBe(413);
    expect((await hono.request("/hooks/made-up-channel/x", { method: "POST", body: "x" })).status).toBe(413);
    expect(reported).toEqual(["nextcloud /hooks/nextcloud/default"]);
  });
});
