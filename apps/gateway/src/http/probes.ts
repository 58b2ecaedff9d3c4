import type { Hono } from "hono";
import { bearerMatches } from "./auth.js";
import type { HookRegistry } from "./hooks.js";
import type { ReadinessReport } from "./readiness.js";

/** What the operator's routes need: `/readyz`, `/metrics`, and who hears of a webhook refused for its size. */
export interface ProbeRoutesOptions {
  token: string;
  /** `GET /readyz`: whether the gateway is ready, and what is not. */
  readiness?: (() => Promise<ReadinessReport>) | undefined;
  /** `GET /metrics`: the Prometheus text. */
  metrics?: (() => Promise<{ contentType: string; body: string }>) | undefined;
  /** `/metrics` without the bearer token (`gateway.metrics.public: true`). */
  metricsPublic?: boolean | undefined;
  /** The plugins' webhook routes: a 413 is reported only for a path one of them registered. */
  hooks?: Pick<HookRegistry, "find"> | undefined;
  /** A request to a registered webhook answered 413 (its body over `gateway.maxBodyBytes`). */
  onTooLarge?: ((channel: string, path: string) => void) | undefined;
}

/**
 * The routes an operator's tools poll (DESIGN §6), beside `/healthz` (liveness): `/readyz`
 * (200 or 503 with what is not ready; no token, as `/healthz`, and no secret in it) and `/metrics`
 * (the bearer token unless `gateway.metrics.public`). Registered before the body limit, so a
 * webhook it refuses for its size is seen too.
 */
export function registerProbeRoutes(app: Hono, options: ProbeRoutesOptions): void {
  app.use("/hooks/*", async (c, next) => {
    await next();
    // Only a plugin's own route: any other path would let a caller invent channel names (metric labels).
    if (c.res.status === 413 && options.hooks?.find(c.req.method, c.req.path))
      options.onTooLarge?.(c.req.path.split("/")[2] ?? "", c.req.path);
  });

  app.get("/readyz", async (c) => {
    c.header("cache-control", "no-store");
    if (!options.readiness) return c.json({ ok: true, ready: true, notReady: [] });
    const report = await options.readiness();
    if (report.ready) return c.json({ ok: true, ...report });
    const code = report.state.ready ? "E_DISABLED" : "E_PLATFORM";
    return c.json({ ok: false, error: { code, message: `not ready: ${report.notReady.join("; ")}` }, ...report }, 503);
  });

  app.get("/metrics", async (c) => {
    if (!options.metricsPublic && !bearerMatches(c.req.header("authorization"), options.token)) {
      const message = "missing or wrong bearer token (gateway.auth.token; or set gateway.metrics.public: true)";
      return c.json({ ok: false, error: { code: "E_AUTH", message } }, 401);
    }
    if (!options.metrics) return c.json({ ok: false, error: { code: "E_DISABLED", message: "no metrics" } }, 409);
    const { contentType, body } = await options.metrics();
    c.header("content-type", contentType);
    c.header("cache-control", "no-store");
    return c.body(body);
  });
}
