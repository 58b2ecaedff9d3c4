import type { BackoffPolicy } from "@chorus/channel-kit";
import { MemoryStore } from "@chorus/channel-kit/state";
import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelPlugin,
  type ChannelStatus,
  ChorusError,
  type Logger,
} from "@chorus/core";
import { createMemoryChannel, waitFor } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { ChannelSupervisor } from "./supervisor.js";

/** What one start does: succeed, or throw. */
type StartScript = "ok" | Error;

/** A channel whose instances start as scripted (the last entry repeats) and report what a test sets. */
function scriptedChannel(starts: StartScript[]) {
  const instances: (ChannelInstance & { reported: ChannelStatus; stops: number })[] = [];
  const createdAt: number[] = [];
  const plugin: ChannelPlugin<unknown> = {
    ...(createMemoryChannel({ id: "scripted", label: "Scripted" }) as ChannelPlugin<unknown>),
    secretKeys: ["token"],
    create(_ctx: ChannelContext<unknown>) {
      const script = starts[Math.min(instances.length, starts.length - 1)] ?? "ok";
      const instance = {
        reported: { state: "running", detail: "connected" } as ChannelStatus,
        stops: 0,
        async start() {
          if (script instanceof Error) throw script;
        },
        async stop() {
          instance.stops++;
        },
        send: () => Promise.reject(new Error("not used")),
        react: () => Promise.reject(new Error("not used")),
        setTyping: async () => {},
        resolveMessageRef: () => Promise.reject(new Error("not used")),
        status: () => instance.reported,
      };
      instances.push(instance);
      createdAt.push(performance.now());
      return instance;
    },
  };
  return { plugin, instances, createdAt };
}

function supervise(plugin: ChannelPlugin<unknown>, authRetryMs: number) {
  const lines: { level: string; msg: string }[] = [];
  const log = (level: string) => (_fields: unknown, msg?: string) => {
    lines.push({ level, msg: msg ?? "" });
  };
  const logger: Logger = {
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    child: () => logger,
  };
  const backoff: BackoffPolicy = { initialMs: 10, maxMs: 40, jitter: 0 };
  const supervisor = new ChannelSupervisor({
    plugin,
    accountId: "default",
    logger,
    backoff,
    authRetryMs,
    context: (signal) => ({
      config: {},
      accountId: "default",
      store: new MemoryStore(),
      stateDir: "/nonexistent",
      logger,
      signal,
      emit: async () => {},
      http: { route: () => {}, url: (path) => path },
    }),
  });
  return { supervisor, lines };
}

const refused = () =>
  new ChorusError("E_AUTH", "Unauthorized", {
    hint: "Check channels.scripted.token (the platform's admin page has it).",
  });

describe("ChannelSupervisor: refused credentials (DESIGN §3)", () => {
  it("E_AUTH at start: failed with the reason and the key to fix, said once, retried only quietly", async () => {
    const { plugin, instances, createdAt } = scriptedChannel([refused(), refused(), "ok"]);
    const { supervisor, lines } = supervise(plugin, 300);
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
    expect(lines.filter((l) => l.level === "error")).toEqual([
      { level: "error", msg: "channel credentials refused; not restarting it (fix the config)" },
    ]);
    expect(lines.filter((l) => l.msg === "channel credentials still refused")).toHaveLength(1);
    expect(lines.filter((l) => l.msg === "channel failed; restarting")).toEqual([]);
    expect(supervisor.status()).not.toHaveProperty("fix");
    await supervisor.stop();
  });

  it("an instance that reports failed while running is stopped and failed, not restarted; it comes back once accepted", async () => {
    const { plugin, instances } = scriptedChannel(["ok", refused(), "ok"]);
    const { supervisor } = supervise(plugin, 200);
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
    const { supervisor, lines } = supervise(plugin, 100);
    await supervisor.start();
    await waitFor(() => supervisor.status().state === "running", { timeoutMs: 5_000 });
    expect(instances).toHaveLength(3);
    expect(lines.filter((l) => l.msg === "channel failed; restarting")).toHaveLength(1);
    expect(supervisor.status()).toMatchObject({ state: "running", restarts: 2, lastError: "connect ECONNREFUSED" });
    await supervisor.stop();
  });

  it("stop() ends the quiet wait at once", async () => {
    const { plugin, instances } = scriptedChannel([refused()]);
    const { supervisor } = supervise(plugin, 600_000);
    await supervisor.start();
    const began = performance.now();
    await supervisor.stop();
    expect(performance.now() - began).toBeLessThan(2_000);
    expect(supervisor.status().state).toBe("stopped");
    expect(instances).toHaveLength(1);
  });
});
