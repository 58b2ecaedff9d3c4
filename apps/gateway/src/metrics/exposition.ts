import type * as PromClient from "prom-client";
import { requirePackage } from "../support/index.js";
import type { GatewayMetrics, ScrapeSources } from "./gateway-metrics.js";
import type { CounterSeries, HistogramSeries } from "./series.js";

/** The states a channel account's gauge has a series for (core's, and any other a status reports). */
const ACCOUNT_STATES = ["starting", "running", "degraded", "failed", "stopped"];

type Labels = Record<string, string>;

/** A scrape's answer: the Prometheus text format and its content type. */
export interface Exposition {
  contentType: string;
  body: string;
}

const registries = new WeakMap<GatewayMetrics, PromClient.Registry>();

/**
 * `GET /metrics`, loaded on its first request (with prom-client): a registry whose collectors read
 * the gateway's plain counters at each scrape, whose histograms take over the observations made
 * so far, and whose gauges ask the state and the channel accounts; Node's process metrics beside.
 */
export async function expose(metrics: GatewayMetrics, sources: ScrapeSources): Promise<Exposition> {
  let registry = registries.get(metrics);
  if (!registry) {
    registry = createRegistry(metrics, sources);
    registries.set(metrics, registry);
  }
  return { contentType: registry.contentType, body: await registry.metrics() };
}

function createRegistry(metrics: GatewayMetrics, sources: ScrapeSources): PromClient.Registry {
  const client = requirePackage("prom-client") as typeof PromClient;
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const labelsOf = (names: readonly string[], values: readonly string[]): Labels =>
    Object.fromEntries(names.map((name, i) => [name, values[i] ?? ""]));

  const counter = (series: CounterSeries, zeroes: () => string[][] = () => []) =>
    new client.Counter({
      name: series.name,
      help: series.help,
      labelNames: [...series.labelNames],
      registers: [registry],
      collect() {
        this.reset();
        for (const labels of zeroes()) this.inc(labelsOf(series.labelNames, labels), 0);
        for (const sample of series.samples()) this.inc(labelsOf(series.labelNames, sample.labels), sample.value);
      },
    });
  const histogram = (series: HistogramSeries) => {
    const exposed = new client.Histogram({
      name: series.name,
      help: series.help,
      labelNames: [...series.labelNames],
      buckets: [...series.buckets],
      registers: [registry],
    });
    series.drainTo((labels, value) => exposed.observe(labelsOf(series.labelNames, labels), value));
  };
  const gauge = (
    name: string,
    help: string,
    labelNames: string[],
    collect: (set: (labels: Labels, value: number) => void) => Promise<void> | void,
  ) =>
    new client.Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        await collect((labels, value) => this.set(labels, value));
      },
    });

  counter(metrics.inbound);
  counter(metrics.handled);
  counter(metrics.turnsStarted);
  counter(metrics.turnsFinished);
  histogram(metrics.turnSeconds);
  histogram(metrics.modelSeconds);
  counter(metrics.modelErrors);
  counter(metrics.sends);
  counter(metrics.sendFailures);
  // Every channel's series, at 0 until its first medium moves.
  const channels = () => [...new Set(sources.accounts().map((a) => a.channel))];
  counter(metrics.mediaBytes, () =>
    channels().flatMap((channel) => [
      [channel, "in"],
      [channel, "out"],
    ]),
  );

  // One scrape reads the queues once, for the four gauges; NaN while the state cannot be read.
  type Queues = Awaited<ReturnType<ScrapeSources["queues"]>>;
  let queues: Promise<Queues | undefined> | undefined;
  const queueGauge = (name: string, help: string, value: (read: Queues) => number) =>
    gauge(name, help, [], async (set) => {
      queues ??= sources
        .queues()
        .catch(() => undefined)
        .finally(() => setImmediate(() => (queues = undefined)));
      const read = await queues;
      set({}, read ? value(read) : Number.NaN);
    });
  const ageOf = (oldestAt: number | undefined) =>
    oldestAt === undefined ? 0 : Math.max(0, Date.now() - oldestAt) / 1000;
  queueGauge("chorus_outbox_pending", "Replies recorded and not yet sent (database-wide).", (q) => q.outbox.pending);
  queueGauge("chorus_outbox_oldest_pending_age_seconds", "Age of the oldest reply not yet sent (0: none).", (q) =>
    ageOf(q.outbox.oldestAt),
  );
  queueGauge(
    "chorus_inbox_backlog",
    "Inbound events received and not yet handled (database-wide).",
    (q) => q.inbox.backlog,
  );
  queueGauge(
    "chorus_inbox_oldest_backlog_age_seconds",
    "Age of the oldest inbound event not yet handled (0: none).",
    (q) => ageOf(q.inbox.oldestAt),
  );
  gauge(
    "chorus_channel_account_state",
    "Each channel account's state on this gateway: 1 for the state it is in, 0 for the others.",
    ["channel", "account", "state"],
    (set) => {
      for (const { channel, account, state } of sources.accounts()) {
        for (const known of new Set([...ACCOUNT_STATES, state]))
          set({ channel, account, state: known }, known === state ? 1 : 0);
      }
    },
  );
  gauge(
    "chorus_ready",
    "1 when GET /readyz answers 200 (the state is reachable and every account runs).",
    [],
    async (set) => set({}, (await sources.ready()) ? 1 : 0),
  );
  return registry;
}
