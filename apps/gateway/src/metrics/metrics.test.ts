import { Redactor } from "@chorus/channel-kit";
import type { Logger } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { GatewayMetrics, type ScrapeSources } from "./gateway-metrics.js";
import { renderMetrics } from "./render.js";
import { watchUnreadable } from "./unreadable.js";

/** The samples of a Prometheus text, by series (`name{labels}`). */
function samples(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    map.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return map;
}

const sources = (over: Partial<ScrapeSources> = {}): ScrapeSources => ({
  queues: async () => ({ inbox: { backlog: 2, oldestAt: Date.now() - 30_000 }, outbox: { pending: 0 } }),
  accounts: () => [
    { channel: "telegram", account: "default", state: "running" },
    { channel: "telegram", account: "work", state: "degraded" },
  ],
  ready: async () => false,
  ...over,
});

describe("GatewayMetrics: plain numbers, exposed in Prometheus text on the first scrape", () => {
  it("counts outcomes, turns, the model and sends, with bounded labels", async () => {
    const metrics = new GatewayMetrics();
    metrics.received("telegram", "default", "committed");
    metrics.received("telegram", "default", "committed");
    metrics.received("telegram", "default", "duplicate");
    metrics.handledAs("telegram", "default", "blocked");
    metrics.turnStarted("main", "telegram");
    metrics.model("main", "openai", 0.3);
    metrics.model("main", "openai", 2, "E_RATE_LIMITED");
    metrics.turnFinished("main", "telegram", "replied", 0.4);
    metrics.delivery("telegram");
    metrics.delivery("telegram", "E_PLATFORM");

    const text = (await renderMetrics(metrics, sources())).body;
    const got = samples(text);
    expect(got.get('chorus_inbound_events_total{channel="telegram",account="default",outcome="committed"}')).toBe(2);
    expect(got.get('chorus_inbound_events_total{channel="telegram",account="default",outcome="duplicate"}')).toBe(1);
    expect(got.get('chorus_inbound_handled_total{channel="telegram",account="default",outcome="blocked"}')).toBe(1);
    expect(got.get('chorus_turns_started_total{agent="main",channel="telegram"}')).toBe(1);
    expect(got.get('chorus_turns_finished_total{agent="main",channel="telegram",outcome="replied"}')).toBe(1);
    expect(got.get('chorus_model_errors_total{agent="main",provider="openai",code="E_RATE_LIMITED"}')).toBe(1);
    expect(got.get('chorus_model_latency_seconds_bucket{le="0.5",agent="main",provider="openai"}')).toBe(1);
    expect(got.get('chorus_model_latency_seconds_bucket{le="2.5",agent="main",provider="openai"}')).toBe(2);
    expect(got.get('chorus_model_latency_seconds_sum{agent="main",provider="openai"}')).toBeCloseTo(2.3);
    expect(got.get('chorus_replies_sent_total{channel="telegram"}')).toBe(1);
    expect(got.get('chorus_reply_send_failures_total{channel="telegram",code="E_PLATFORM"}')).toBe(1);
    // Gauges, read at the scrape.
    expect(got.get("chorus_inbox_backlog")).toBe(2);
    expect(got.get("chorus_inbox_oldest_backlog_age_seconds")).toBeGreaterThanOrEqual(30);
    expect(got.get("chorus_outbox_pending")).toBe(0);
    expect(got.get("chorus_outbox_oldest_pending_age_seconds")).toBe(0);
    expect(got.get('chorus_channel_account_state{channel="telegram",account="work",state="degraded"}')).toBe(1);
    expect(got.get('chorus_channel_account_state{channel="telegram",account="work",state="running"}')).toBe(0);
    expect(got.get("chorus_ready")).toBe(0);
    // Media: named, at 0, for every channel.
    expect(got.get('chorus_media_bytes_total{channel="telegram",direction="in"}')).toBe(0);
    expect(got.get('chorus_media_bytes_total{channel="telegram",direction="out"}')).toBe(0);
    // Node's own process metrics beside.
    expect(text).toContain("# TYPE process_cpu_user_seconds_total counter");
  });

  it("a histogram keeps every bucket and the sum exact across its first scrape, then counts on", async () => {
    const metrics = new GatewayMetrics();
    for (const seconds of [0.1, 0.1, 0.1, 0.7, 400]) metrics.turnFinished("main", "slack", "no-reply", seconds);
    const first = samples((await renderMetrics(metrics, sources())).body);
    const bucket = (le: string) => `chorus_turn_duration_seconds_bucket{le="${le}",agent="main",outcome="no-reply"}`;
    // 0.1 three times sums to 0.30000000000000004: their mean must not leave the 0.1 bucket.
    expect([
      first.get(bucket("0.1")),
      first.get(bucket("1")),
      first.get(bucket("300")),
      first.get(bucket("+Inf")),
    ]).toEqual([3, 4, 4, 5]);
    expect(first.get('chorus_turn_duration_seconds_sum{agent="main",outcome="no-reply"}')).toBeCloseTo(401);
    metrics.turnFinished("main", "slack", "no-reply", 0.05);
    const second = samples((await renderMetrics(metrics, sources())).body);
    expect([second.get(bucket("0.05")), second.get(bucket("0.1")), second.get(bucket("+Inf"))]).toEqual([1, 4, 6]);
    expect(second.get('chorus_turns_finished_total{agent="main",channel="slack",outcome="no-reply"}')).toBe(6);
  });

  it("a state that cannot be read gives NaN for the queues, not a false 0, and the scrape still answers", async () => {
    const metrics = new GatewayMetrics();
    const exposed = await renderMetrics(
      metrics,
      sources({ queues: () => Promise.reject(new Error("connection refused")) }),
    );
    expect(exposed.contentType).toBe("text/plain; version=0.0.4; charset=utf-8");
    const got = samples(exposed.body);
    expect(got.get("chorus_outbox_pending")).toBeNaN();
    expect(got.get("chorus_inbox_backlog")).toBeNaN();
  });

  it("remembers an account's refused commits for the window, with the last error", () => {
    const metrics = new GatewayMetrics();
    metrics.refused("slack", "work", "the state database is unavailable", 1_000);
    metrics.refused("slack", "work", "lease lost", 5_000);
    expect(metrics.refusals("slack", "work", 0)).toEqual({ count: 2, lastAt: 5_000, lastError: "lease lost" });
    expect(metrics.refusals("slack", "work", 2_000)).toEqual({ count: 1, lastAt: 5_000, lastError: "lease lost" });
    expect(metrics.refusals("slack", "work", 6_000)).toEqual({ count: 0 });
    expect(metrics.refusals("slack", "default", 0)).toEqual({ count: 0 });
    expect(metrics.inbound.value(["slack", "work", "refused"])).toBe(2);
  });
});

describe("watchUnreadable: a channel's unreadable deliveries, from its warnings", () => {
  it("tells of each warning with receipt unreadable (redacted), and logs every line as before", () => {
    const lines: unknown[][] = [];
    const sink: Logger = {
      debug: (...args: unknown[]) => lines.push(["debug", ...args]),
      info: (...args: unknown[]) => lines.push(["info", ...args]),
      warn: (...args: unknown[]) => lines.push(["warn", ...args]),
      error: (...args: unknown[]) => lines.push(["error", ...args]),
      child: () => sink,
    } as Logger;
    const problems: string[] = [];
    const logger = new Redactor(["s3cret-token"]).logger(watchUnreadable(sink, (problem) => problems.push(problem)));
    logger.warn({ receipt: "unreadable", problem: "bad JSON from s3cret-token" }, "acme: skipped a delivery");
    logger.warn({ problem: "something else" }, "not a receipt");
    logger.child({ account: "x" }).warn({ receipt: "unreadable", problem: "no chat" }, "acme: skipped");
    logger.info("hello");
    expect(problems).toEqual(["bad JSON from [redacted]", "no chat"]);
    expect(lines).toHaveLength(4);
    expect(JSON.stringify(lines)).not.toContain("s3cret-token");
  });
});
