import type { Exposition } from "./exposition.js";
import type { GatewayMetrics, ScrapeSources } from "./gateway-metrics.js";

let exposition: Promise<typeof import("./exposition.js")> | undefined;

/**
 * The Prometheus text of a scrape. The metrics library (prom-client) is loaded on the first one,
 * not when the gateway starts: until something scrapes, counting is a few plain numbers.
 */
export async function renderMetrics(metrics: GatewayMetrics, sources: ScrapeSources): Promise<Exposition> {
  exposition ??= import("./exposition.js");
  return (await exposition).expose(metrics, sources);
}
