import type { Redactor } from "@chorus/channel-kit";
import { ChorusError, isChorusError, messageToolInputSchema } from "@chorus/core";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { Logger } from "pino";
import type { MessageToolCalls } from "../channels/index.js";
import { bearerMatches } from "./auth.js";
import { bodySizeLimit } from "./body-limit.js";
import type { HookRegistry } from "./hooks.js";
import { type HostPolicy, hostCheck } from "./host-check.js";
import { type MediaRoutesOptions, registerMediaRoutes } from "./media-routes.js";
import { type ProbeRoutesOptions, registerProbeRoutes } from "./probes.js";
import { redactErrorAnswers } from "./redact-errors.js";
import { httpStatusFor } from "./status.js";

export interface ChannelView {
  id: string;
  account: string;
  label: string;
  status: { state: string; detail?: string; restarts: number };
  capabilities: unknown;
  /** Webhook paths the channel registered (none for channels that connect out, like WhatsApp or Discord). */
  webhooks: string[];
  /** The gateway that runs the account ("" while an account under a lease has no holder). */
  holder: string;
  /** Runs under a lease: several gateways share the database and the account holds a connection. */
  leased: boolean;
}

export interface HttpAppOptions
  extends Omit<ProbeRoutesOptions, "token">,
    Omit<MediaRoutesOptions, "token" | "logger"> {
  token: string;
  maxBodyBytes: number;
  hooks: HookRegistry;
  tools: MessageToolCalls;
  channels(): ChannelView[] | Promise<ChannelView[]>;
  /** The webchat page and its Content-Security-Policy, when webchat runs. */
  webchat?: { page: () => string; csp: () => string };
  logger: Logger;
  /** Takes the gateway's secrets (by value) out of every error answer. */
  redactor?: Redactor;
  /** `GET /v1/events`: streams from after `Last-Event-ID` (none: from now) until `signal` aborts; `operator` (`?operator=1`) adds the operator events. */
  events?: (
    after: number | undefined,
    write: (frame: { id?: string; data: string }) => Promise<void>,
    signal: AbortSignal,
    options: { operator: boolean },
  ) => Promise<void>;
  /** `/mcp`: the MCP Streamable HTTP endpoint. */
  mcp?: (request: Request) => Promise<Response>;
  /** Which `Host` and `Origin` names `/v1` and `/mcp` answer (DNS rebinding protection). */
  hosts?: HostPolicy;
}

/** The gateway's one HTTP app: health, API, webchat page and plugin webhooks (DESIGN §6). */
export function createHttpApp(options: HttpAppOptions): Hono {
  const app = new Hono();
  const { logger } = options;
  // First, so it sees every error answer, whichever route or middleware gave it.
  app.use("*", redactErrorAnswers(options.redactor));
  app.use("*", hostCheck(options.hosts));
  // `/readyz`, `/metrics`, and the webhooks' size refusals (before the body limit, to see them).
  registerProbeRoutes(app, options);
  registerMediaRoutes(app, options);

  app.use(
    "*",
    bodySizeLimit({
      maxSize: options.maxBodyBytes,
      // The rest of a refused body is never read: the connection cannot carry another request.
      onError: (c) => {
        c.header("connection", "close");
        return c.json(errorBody("E_INVALID_INPUT", `request body exceeds ${options.maxBodyBytes} bytes`), 413);
      },
    }),
  );

  app.get("/healthz", (c) => c.json({ ok: true }));

  app.use("/v1/*", async (c, next) => {
    if (!bearerMatches(c.req.header("authorization"), options.token)) {
      return c.json(errorBody("E_AUTH", "missing or wrong bearer token (gateway.auth.token)"), 401);
    }
    await next();
  });

  app.use("/mcp", async (c, next) => {
    if (!bearerMatches(c.req.header("authorization"), options.token)) {
      return c.json(errorBody("E_AUTH", "missing or wrong bearer token (gateway.auth.token)"), 401);
    }
    await next();
  });
  app.all("/mcp", async (c) => {
    if (!options.mcp) return c.json(errorBody("E_DISABLED", "no MCP server"), 409);
    return options.mcp(c.req.raw);
  });

  app.get("/v1/events", (c) => {
    const events = options.events;
    if (!events) return c.json(errorBody("E_DISABLED", "no event stream"), 409);
    const given = c.req.header("last-event-id") ?? c.req.query("lastEventId");
    if (given !== undefined && !/^\d{1,15}$/.test(given.trim())) {
      return c.json(errorBody("E_INVALID_INPUT", "Last-Event-ID must be an event id this stream sent"), 400);
    }
    const after = given === undefined ? undefined : Number(given.trim());
    c.header("cache-control", "no-store");
    c.header("x-accel-buffering", "no");
    const operator = /^(1|true)$/.test(c.req.query("operator") ?? "");
    return streamSSE(c, async (stream) => {
      const closed = new AbortController();
      stream.onAbort(() => closed.abort());
      const keepAlive = setInterval(() => void stream.write(": keep-alive\n\n").catch(() => closed.abort()), 15_000);
      try {
        await events(after, (frame) => stream.writeSSE(frame), closed.signal, { operator });
      } catch (error) {
        if (!closed.signal.aborted) logger.warn({ err: (error as Error).message }, "event stream ended");
      } finally {
        clearInterval(keepAlive);
      }
    });
  });

  app.get("/v1/channels", async (c) => c.json({ ok: true, channels: await options.channels() }));

  app.post("/v1/tools/message", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json(errorBody("E_INVALID_INPUT", "request body must be JSON"), 400);
    }
    // The operator's call: the full parameter set, whatever the channel's reactionLevel (which limits
    // the agent and the runtime, not whoever holds the token; see the README). Core's reaction
    // rules and the channel's flags still apply when it runs.
    const parsed = messageToolInputSchema.safeParse(body);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
      return c.json(errorBody("E_INVALID_INPUT", `invalid message tool call: ${problems}`), 400);
    }
    try {
      const result = await options.tools.execute(parsed.data);
      return c.json({ ok: true, result });
    } catch (error) {
      const typed = isChorusError(error) ? error : new ChorusError("E_PLATFORM", "internal error");
      if (!isChorusError(error)) logger.error({ err: error }, "message tool call failed");
      return c.json({ ok: false, error: typed.toJSON() }, httpStatusFor(typed.code));
    }
  });

  app.all("/hooks/*", async (c) => {
    const handler = options.hooks.find(c.req.method, new URL(c.req.url).pathname);
    if (!handler) return c.json(errorBody("E_INVALID_INPUT", "no webhook is registered at this path"), 404);
    try {
      return await handler(c.req.raw);
    } catch (error) {
      logger.error({ err: error, path: c.req.path }, "webhook handler failed");
      return c.json(errorBody("E_PLATFORM", "webhook handler failed"), 500);
    }
  });

  app.get("/", (c) => {
    if (!options.webchat) return c.text("Chorus gateway. Webchat is disabled (channels.webchat.enabled: false).");
    c.header("content-security-policy", options.webchat.csp());
    return c.html(options.webchat.page());
  });

  app.notFound((c) => c.json(errorBody("E_INVALID_INPUT", `no route ${c.req.method} ${c.req.path}`), 404));
  app.onError((error, c) => {
    logger.error({ err: error }, "request failed");
    return c.json(errorBody("E_PLATFORM", "internal error"), 500);
  });
  return app;
}

function errorBody(code: ChorusError["code"], message: string) {
  return { ok: false, error: { code, message } };
}
