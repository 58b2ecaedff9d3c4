import { type Logger, silentLogger } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { durationSchema } from "../config/index.js";
import type { SessionEntry } from "../sessions/index.js";
import { DEFAULT_HEARTBEAT_PROMPT, HeartbeatScheduler, heartbeatInterval } from "./scheduler.js";

function session(key: string, chatType: "direct" | "group"): SessionEntry {
  return {
    key,
    sessionId: key.replace(/[^A-Za-z0-9]/g, "-").replace(/^-+/, "s"),
    agentId: "main",
    channel: "whatsapp",
    accountId: "default",
    conversationId: key,
    chatType,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
    turns: 1,
    settings: {},
  };
}

const main = session("agent:main:main", "direct");
const peer = session("agent:main:whatsapp:dm:+15550002", "direct");
const group = session("agent:main:whatsapp:group:120363@g.us", "group");

/** A run whose calls stay open until the test ends them. */
class Runs {
  readonly calls: { key: string; signal: AbortSignal }[] = [];
  readonly #open = new Map<string, () => void>();
  run = (entry: SessionEntry, signal: AbortSignal): Promise<void> => {
    this.calls.push({ key: entry.key, signal });
    return new Promise((resolve) => {
      this.#open.set(entry.key, resolve);
      signal.addEventListener("abort", () => resolve(), { once: true });
    });
  };
  finish(key: string): void {
    this.#open.get(key)?.();
    this.#open.delete(key);
  }
  keys(): string[] {
    return this.calls.map((call) => call.key);
  }
}

function recordingLogger(lines: { level: string; fields: unknown; message?: string }[]): Logger {
  const at =
    (level: string) =>
    (fields: unknown, message?: string): void => {
      lines.push({ level, fields, ...(message === undefined ? {} : { message }) });
    };
  const logger: Logger = {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: () => logger,
  };
  return logger;
}

let schedulers: HeartbeatScheduler[];
beforeEach(() => {
  vi.useFakeTimers();
  schedulers = [];
});
afterEach(async () => {
  await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
  vi.useRealTimers();
});

function scheduler(options: Partial<ConstructorParameters<typeof HeartbeatScheduler>[0]> & { runs: Runs }) {
  const created = new HeartbeatScheduler({
    everyMs: 60_000,
    sessions: () => [main, group, peer],
    run: options.runs.run,
    logger: silentLogger,
    ...options,
  });
  schedulers.push(created);
  return created;
}

describe("HeartbeatScheduler", () => {
  it("runs direct sessions on every tick and never groups", async () => {
    const runs = new Runs();
    const beats = scheduler({ runs });
    beats.start();
    await vi.advanceTimersByTimeAsync(59_999);
    expect(runs.keys()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs.keys()).toEqual([main.key, peer.key]);
    runs.finish(main.key);
    runs.finish(peer.key);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs.keys()).toEqual([main.key, peer.key, main.key, peer.key]);
    expect(runs.keys()).not.toContain(group.key);
  });

  it("reads the sessions again at every tick", async () => {
    const runs = new Runs();
    let sessions = [group];
    const beats = scheduler({ runs, sessions: () => sessions });
    beats.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs.keys()).toEqual([]);
    sessions = [group, main];
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs.keys()).toEqual([main.key]);
  });

  it("never runs two heartbeats at once for one session", async () => {
    const runs = new Runs();
    const lines: { level: string; fields: unknown; message?: string }[] = [];
    const beats = scheduler({ runs, logger: recordingLogger(lines) });
    beats.start();
    await vi.advanceTimersByTimeAsync(60_000);
    runs.finish(peer.key);
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    // main is still running from the first tick: only peer ran again.
    expect(runs.keys()).toEqual([main.key, peer.key, peer.key]);
    expect(beats.running.sort()).toEqual([main.key, peer.key].sort());
    expect(lines.some((line) => line.level === "debug" && /still running/.test(line.message ?? ""))).toBe(true);
    runs.finish(main.key);
    runs.finish(peer.key);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs.keys().filter((key) => key === main.key)).toHaveLength(2);
  });

  it("logs a failed heartbeat and keeps going", async () => {
    const lines: { level: string; fields: unknown; message?: string }[] = [];
    const runs = new Runs();
    let calls = 0;
    const beats = scheduler({
      runs,
      sessions: () => [main],
      logger: recordingLogger(lines),
      run: async () => {
        calls++;
        throw new Error("model down");
      },
    });
    beats.start();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toBe(2);
    expect(lines.filter((line) => line.level === "warn")).toEqual([
      { level: "warn", fields: { sessionKey: main.key, err: "model down" }, message: "heartbeat failed" },
      { level: "warn", fields: { sessionKey: main.key, err: "model down" }, message: "heartbeat failed" },
    ]);
    expect(beats.running).toEqual([]);
  });

  it("clears a session whose run throws synchronously", async () => {
    const runs = new Runs();
    let calls = 0;
    const beats = scheduler({
      runs,
      sessions: () => [main],
      run: () => {
        calls++;
        throw new Error("sync failure");
      },
    });
    await beats.tick();
    await beats.tick();
    expect(calls).toBe(2);
    expect(beats.running).toEqual([]);
  });

  it("logs when the sessions cannot be listed", async () => {
    const lines: { level: string; fields: unknown; message?: string }[] = [];
    const runs = new Runs();
    const beats = scheduler({
      runs,
      logger: recordingLogger(lines),
      sessions: () => {
        throw new Error("store closed");
      },
    });
    await beats.tick();
    expect(lines).toEqual([
      { level: "warn", fields: { err: "store closed" }, message: "heartbeat could not list the sessions" },
    ]);
  });

  it("tick() resolves when the heartbeats it started have ended", async () => {
    const runs = new Runs();
    const beats = scheduler({ runs });
    let ended = false;
    const tick = beats.tick().then(() => {
      ended = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    runs.finish(main.key);
    await vi.advanceTimersByTimeAsync(0);
    expect(ended).toBe(false);
    runs.finish(peer.key);
    await tick;
    expect(ended).toBe(true);
  });

  it("stop() ends the timer, aborts running heartbeats and waits for them", async () => {
    const runs = new Runs();
    const beats = scheduler({ runs, sessions: () => [main] });
    beats.start();
    expect(beats.started).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs.calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(1);
    await beats.stop();
    expect(beats.started).toBe(false);
    expect(runs.calls[0]?.signal.aborted).toBe(true);
    expect(beats.running).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(runs.calls).toHaveLength(1);
  });

  it("can start again after stop with a fresh signal; start twice keeps one timer", async () => {
    const runs = new Runs();
    const beats = scheduler({ runs, sessions: () => [main] });
    beats.start();
    await beats.stop();
    beats.start();
    beats.start();
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs.calls).toHaveLength(1);
    expect(runs.calls[0]?.signal.aborted).toBe(false);
  });

  it("takes the interval as a duration string, parsed like the config", async () => {
    const runs = new Runs();
    const beats = scheduler({ runs, everyMs: "30m", sessions: () => [main] });
    expect(beats.everyMs).toBe(durationSchema.parse("30m"));
    beats.start();
    await vi.advanceTimersByTimeAsync(29 * 60_000);
    expect(runs.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs.calls).toHaveLength(1);
  });
});

describe("heartbeatInterval", () => {
  it("accepts milliseconds and durations", () => {
    expect(heartbeatInterval(1500)).toBe(1500);
    expect(heartbeatInterval("45s")).toBe(45_000);
    expect(heartbeatInterval("2h")).toBe(7_200_000);
  });

  it.each([0, "0m", -5, 1.5, "soon", "30 minutes", "30d"])("rejects %j with E_INVALID_INPUT", (every) => {
    expect(() => heartbeatInterval(every)).toThrow(
      expect.objectContaining({ code: "E_INVALID_INPUT", message: expect.stringContaining("heartbeat.every") }),
    );
  });
});

describe("DEFAULT_HEARTBEAT_PROMPT", () => {
  it("tells the agent how to stay silent", () => {
    expect(DEFAULT_HEARTBEAT_PROMPT).toContain("NO_REPLY");
  });
});
