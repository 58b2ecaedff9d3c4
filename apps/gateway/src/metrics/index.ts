// What the gateway counts for operators: inbound outcomes, turns, the model, sends, media — plain numbers exposed on `GET /metrics` (Prometheus, prom-client loaded on the first scrape) — and the channels' unreadable deliveries, noticed in their log lines.
export type { Exposition } from "./exposition.js";
export {
  GatewayMetrics,
  REFUSALS_WINDOW_MS,
  type ReceiveOutcome,
  type Refusals,
  type ScrapeSources,
  type TurnEnd,
} from "./gateway-metrics.js";
export { renderMetrics } from "./render.js";
export { CounterSeries, HistogramSeries } from "./series.js";
export { RECEIPT_FIELD, watchUnreadable } from "./unreadable.js";
