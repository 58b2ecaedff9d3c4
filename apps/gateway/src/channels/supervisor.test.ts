import { ChorusError } from "@chorus/core";
import { eventually } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { type ScriptedInstance, scriptedChannel, supervise } from "./supervisor.test.util.js";

describe("ChannelSupervisor", () => {
  it("starts the channel: running, with what the instance reports and no restarts", async () => {
    const { plugin, instances } = scriptedChannel(["ok"]);
    const { supervisor, lines } = supervise(plugin);
    expect(supervisor.status()).toEqual({ state: "stopped", restarts: 0 });
    await supervisor.start();
    expect(supervisor.id).toBe("scripted:default");
    expect(supervisor.status()).toEqual({ state: "running", detail: "connected as @bot", restarts: 0 });
    expect(supervisor.instance?.status()).toBe(instances[0]?.reported);
    expect(instances[0]?.signal.aborted).toBe(false);
    expect(lines).toContainEqual(expect.objectContaining({ level: "info", msg: "channel started" }));
    await supervisor.stop();
  });

  it("passes on a running instance's own degraded status, keeping its restart count", async () => {
    const { plugin, instances } = scriptedChannel(["ok"]);
    const { supervisor } = supervise(plugin);
    await supervisor.start();
    (instances[0] as ScriptedInstance).reported = { state: "degraded", detail: "event poll failed" };
    expect(supervisor.status()).toEqual({ state: "degraded", detail: "event poll failed", restarts: 0 });
    await supervisor.stop();
  });

  it("a start that throws is degraded with its error, then retried with exponential backoff until it runs", async () => {
    const { plugin, instances, createdAt } = scriptedChannel([
      new Error("connect refused"),
      new Error("still refused"),
      "ok",
    ]);
    const { supervisor, lines } = supervise(plugin);
    await supervisor.start();
    expect(supervisor.status()).toEqual({
      state: "degraded",
      detail: "connect refused",
      restarts: 0,
      lastError: "connect refused",
    });
    expect(supervisor.instance).toBeUndefined();
    await eventually(() => expect(supervisor.status().state).toBe("running"));
    expect(supervisor.status()).toEqual({
      state: "running",
      detail: "connected as @bot",
      restarts: 2,
      lastError: "still refused",
    });
    expect(supervisor.instance?.status()).toBe(instances[2]?.reported);
    // Every failed instance was stopped and its signal aborted.
    expect(instances.slice(0, 2).map((i) => [i.stops, i.signal.aborted])).toEqual([
      [1, true],
      [1, true],
    ]);
    const retries = lines.filter((line) => line.msg === "channel failed; restarting").map((line) => line.fields);
    expect(retries).toEqual([
      expect.objectContaining({ err: "connect refused", attempt: 1, retryInMs: 20 }),
      expect.objectContaining({ err: "still refused", attempt: 2, retryInMs: 40 }),
    ]);
    const [first = 0, second = 0, third = 0] = createdAt;
    expect(second - first).toBeGreaterThanOrEqual(18);
    expect(third - second).toBeGreaterThanOrEqual(38);
    await supervisor.stop();
  });

  it("a plain Error reported by an operation restarts the running instance", async () => {
    const { plugin, instances } = scriptedChannel(["ok", "ok"]);
    const { supervisor } = supervise(plugin);
    await supervisor.start();
    supervisor.reportFailure(new Error("socket hang up"));
    expect(supervisor.status()).toEqual({
      state: "degraded",
      detail: "socket hang up",
      restarts: 0,
      lastError: "socket hang up",
    });
    expect(supervisor.instance).toBeUndefined();
    // A second report while it is down is about the same crash: it schedules no second restart.
    supervisor.reportFailure(new Error("socket hang up, again"));
    await eventually(() => expect(supervisor.status().state).toBe("running"));
    expect(supervisor.status()).toMatchObject({ restarts: 1, lastError: "socket hang up" });
    expect(instances).toHaveLength(2);
    expect(instances[0]).toMatchObject({ stops: 1 });
    expect(instances[0]?.signal.aborted).toBe(true);
    expect(supervisor.instance?.status()).toBe(instances[1]?.reported);
    await supervisor.stop();
  });

  it("a failure reported while the replacement is starting starts no second instance", async () => {
    let release = () => {};
    const connecting = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { plugin, instances } = scriptedChannel(["ok", { waitFor: connecting }, "ok"]);
    const { supervisor } = supervise(plugin);
    await supervisor.start();
    supervisor.reportFailure(new Error("crashed"));
    await eventually(() => expect(instances).toHaveLength(2));
    expect(supervisor.status().state).toBe("starting");
    // A late failure from the crashed instance's last operation arrives while the new one connects.
    supervisor.reportFailure(new Error("late failure of the crashed instance"));
    release();
    await eventually(() => expect(supervisor.status().state).toBe("running"));
    expect(supervisor.status()).toMatchObject({ restarts: 1, lastError: "crashed" });
    expect(supervisor.instance?.status()).toBe(instances[1]?.reported);
    expect(instances[1]?.stops).toBe(0);
    await supervisor.stop();
    expect(instances).toHaveLength(2);
  });

  it("a ChorusError (a typed platform answer) does not restart the channel", async () => {
    const { plugin, instances } = scriptedChannel(["ok"]);
    const { supervisor } = supervise(plugin);
    await supervisor.start();
    supervisor.reportFailure(new ChorusError("E_RATE_LIMITED", "slow down", { retryable: true }));
    supervisor.reportFailure(new ChorusError("E_MESSAGE_NOT_FOUND", "no such message"));
    expect(supervisor.status()).toEqual({ state: "running", detail: "connected as @bot", restarts: 0 });
    expect(supervisor.instance?.status()).toBe(instances[0]?.reported);
    expect(instances[0]?.stops).toBe(0);
    await supervisor.stop();
    expect(instances).toHaveLength(1);
  });

  it("stop() during a long backoff ends at once and never starts the channel again", async () => {
    const { plugin, instances } = scriptedChannel([new Error("down")]);
    const { supervisor } = supervise(plugin, { backoff: { initialMs: 60_000, maxMs: 60_000, jitter: 0 } });
    await supervisor.start();
    expect(supervisor.status().state).toBe("degraded");
    const started = performance.now();
    await supervisor.stop();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(supervisor.status()).toEqual({ state: "stopped", detail: "down", restarts: 0, lastError: "down" });
    expect(supervisor.instance).toBeUndefined();
    expect(instances).toHaveLength(1);
    await supervisor.start();
    expect(instances).toHaveLength(1);
  });

  it("stop() while a start is in flight aborts its signal and stops the instance once it comes up", async () => {
    let release = () => {};
    const connecting = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { plugin, instances } = scriptedChannel([{ waitFor: connecting }]);
    const { supervisor } = supervise(plugin);
    const starting = supervisor.start();
    await eventually(() => expect(instances).toHaveLength(1));
    expect(supervisor.status().state).toBe("starting");
    const stopping = supervisor.stop();
    expect(instances[0]?.signal.aborted).toBe(true);
    // Let stop() get as far as it can while the start is still connecting, then let the start finish.
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([starting, stopping]);
    expect(supervisor.status()).toEqual({ state: "stopped", restarts: 0 });
    expect(supervisor.instance).toBeUndefined();
    expect(instances[0]?.stops).toBe(1);
  });

  it("stop() gives up on an instance that does not stop within stopTimeoutMs", async () => {
    const { plugin, instances } = scriptedChannel(["ok"], { stopHangs: true });
    const { supervisor, lines } = supervise(plugin, { stopTimeoutMs: 30 });
    await supervisor.start();
    await supervisor.stop();
    expect(instances[0]?.stops).toBe(1);
    expect(supervisor.status()).toEqual({ state: "stopped", restarts: 0 });
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: "warn",
        msg: "channel did not stop cleanly",
        fields: expect.objectContaining({ err: "stop took over 30 ms" }),
      }),
    );
  });
});
