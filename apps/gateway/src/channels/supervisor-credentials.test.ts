import type { BackoffPolicy } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import { waitFor } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { scriptedChannel, supervise } from "./supervisor.test.util.js";

/** The ordinary restart backoff, far shorter than the quiet retries of refused credentials. */
const RESTART_BACKOFF: BackoffPolicy = { initialMs: 10, maxMs: 40, jitter: 0 };

const refused = () =>
  new ChorusError("E_AUTH", "Unauthorized", {
    hint: "Check channels.scripted.token (the platform's admin page has it).",
  });

describe("ChannelSupervisor: refused credentials (DESIGN §3)", () => {
  it("E_AUTH at start: failed with the reason and the key to fix, said once, retried only quietly", async () => {
    const { plugin, instances, createdAt } = scriptedChannel([refused(), refused(), "ok"]);
    const { supervisor, lines } = supervise(plugin, { backoff: RESTART_BACKOFF, authRetryMs: 300 });
    await supervisor.start();
    expect(supervisor.status()).toMatchObject({
      state: "failed",
      detail: "Unauthorized",
      fix: expect.stringMatching(/^Check channels\.scripted\.token .*tries again every 300 ms/),
    });
    expect(supervisor.instance).toBeUndefined();
    // The quiet retries, then the start that works.
    await waitFor(() => supervisor.status().state === "running", { timeoutMs: 5_000 });
    expect(instances).toHaveLength(3);
    const [first = 0, second = 0, third = 0] = createdAt;
    // Never the restart backoff's 10 ms: each try waited the whole quiet interval.
    expect(second - first).toBeGreaterThanOrEqual(290);
    expect(third - second).toBeGreaterThanOrEqual(290);
    expect(lines.filter((l) => l.level === "error").map(({ level, msg }) => ({ level, msg }))).toEqual([
      { level: "error", msg: "channel credentials refused; not restarting it (fix the config)" },
    ]);
    expect(lines.filter((l) => l.msg === "channel credentials still refused")).toHaveLength(1);
    expect(lines.filter((l) => l.msg === "channel failed; restarting")).toEqual([]);
    expect(supervisor.status()).not.toHaveProperty("fix");
    await supervisor.stop();
  });

  it("an instance that reports failed while running is stopped and failed, not restarted; it comes back once accepted", async () => {
    const { plugin, instances } = scriptedChannel(["ok", refused(), "ok"]);
    const { supervisor } = supervise(plugin, { backoff: RESTART_BACKOFF, authRetryMs: 200 });
    await supervisor.start();
    expect(supervisor.instance).toBeDefined();
    const first = instances[0] as (typeof instances)[number];
    first.reported = { state: "failed", detail: "the platform revoked the token" };
    expect(supervisor.status()).toMatchObject({
      state: "failed",
      detail: "the platform revoked the token",
      fix: expect.stringContaining("Check channels.scripted.token."),
    });
    expect(supervisor.instance).toBeUndefined();
    await waitFor(() => first.stops === 1);
    // The quiet retry's start is refused too: still failed, now with the platform's own hint.
    await waitFor(() => instances.length === 2 && supervisor.status().state === "failed");
    expect(supervisor.status().fix).toMatch(/^Check channels\.scripted\.token \(the platform's admin page has it\)/);
    await waitFor(() => supervisor.status().state === "running", { timeoutMs: 5_000 });
    expect(instances).toHaveLength(3);
    await supervisor.stop();
  });

  it("a quiet retry that fails otherwise (the platform is down) goes back to the ordinary restarts", async () => {
    const { plugin, instances } = scriptedChannel([refused(), new Error("connect ECONNREFUSED"), "ok"]);
    const { supervisor, lines } = supervise(plugin, { backoff: RESTART_BACKOFF, authRetryMs: 100 });
    await supervisor.start();
    await waitFor(() => supervisor.status().state === "running", { timeoutMs: 5_000 });
    expect(instances).toHaveLength(3);
    expect(lines.filter((l) => l.msg === "channel failed; restarting")).toHaveLength(1);
    expect(supervisor.status()).toMatchObject({ state: "running", restarts: 2, lastError: "connect ECONNREFUSED" });
    await supervisor.stop();
  });

  it("stop() ends the quiet wait at once", async () => {
    const { plugin, instances } = scriptedChannel([refused()]);
    const { supervisor } = supervise(plugin, { backoff: RESTART_BACKOFF, authRetryMs: 600_000 });
    await supervisor.start();
    const began = performance.now();
    await supervisor.stop();
    expect(performance.now() - began).toBeLessThan(2_000);
    expect(supervisor.status().state).toBe("stopped");
    expect(instances).toHaveLength(1);
  });
});
