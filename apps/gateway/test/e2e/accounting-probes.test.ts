import { faults, waitFor } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";

/** `GET /readyz` without a token: its status and body. */
// biome-ignore lint/suspicious/noExplicitAny: the body is checked field by field
async function readyz(url: string): Promise<{ status: number; body: any; text: string }> {
  const response = await fetch(`${url}/readyz`);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}

describe("/healthz, /readyz and /metrics on the real gateway", () => {
  let world: ModelWorld;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    world = await createModelWorld();
    gateway = await startGatewayProcess({
      config: {
        ...world.config(),
        gateway: { metrics: { public: true }, auth: { token: "probe-test-token-0123456789" } },
      },
    });
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await world?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("/readyz is 503 while a channel account is degraded (its platform answers 5xx), naming it and why; 200 again once it runs", async () => {
    await waitFor(async () => (await readyz(gateway.url)).status === 200, { message: "ready after the start" });
    const ready = await readyz(gateway.url);
    expect(ready.body).toMatchObject({
      ok: true,
      ready: true,
      state: { ready: true },
      notReady: [],
      channels: expect.arrayContaining([
        expect.objectContaining({ channel: "memory", account: "default", ready: true, state: "running" }),
        expect.objectContaining({ channel: "webchat", account: "default", ready: true, state: "running" }),
      ]),
    });

    world.platform.server.inject(
      faults.serverError({ method: "GET", path: "/v1/events" }, { status: 502, times: Number.POSITIVE_INFINITY }),
    );
    await waitFor(async () => (await readyz(gateway.url)).status === 503, {
      timeoutMs: 15_000,
      message: "/readyz 503 while the platform answers 502",
    });
    const down = await readyz(gateway.url);
    expect(down.body).toMatchObject({
      ok: false,
      ready: false,
      error: { code: "E_DISABLED", message: expect.stringContaining("channel memory (default) is degraded") },
      state: { ready: true },
      channels: expect.arrayContaining([
        expect.objectContaining({
          channel: "memory",
          ready: false,
          state: "degraded",
          detail: expect.stringContaining("502"),
        }),
      ]),
    });
    expect(down.body.notReady).toEqual([expect.stringMatching(/^channel memory \(default\) is degraded: .*502/)]);
    // Liveness is not readiness: the process still serves.
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    // The metrics say the same (public here: gateway.metrics.public).
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(metrics).toContain('chorus_channel_account_state{channel="memory",account="default",state="degraded"} 1');
    expect(metrics).toContain("chorus_ready 0");

    world.platform.server.clearFaults();
    await waitFor(async () => (await readyz(gateway.url)).status === 200, {
      timeoutMs: 15_000,
      message: "/readyz 200 once the platform answers again",
    });
    for (const answer of [ready.text, down.text]) expect(answer).not.toContain("probe-test-token-0123456789");
    expect(down.text).not.toContain(world.platform.token);
  });

  it("gateway.metrics.public serves /metrics without the token; /v1 still needs it", async () => {
    const response = await fetch(`${gateway.url}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("# TYPE chorus_inbound_events_total counter");
    expect((await fetch(`${gateway.url}/v1/channels`)).status).toBe(401);
  });
});
