import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelPlugin,
  ChorusError,
  type HttpHandler,
  type HttpMethod,
  type InboundEvent,
  type Logger,
  silentLogger,
} from "@chorus/core";
import { waitFor } from "./fake-server/index.js";

export interface StartChannelOptions {
  /** The raw `channels.<id>` block; validated by the plugin's schema like the gateway does. */
  config: unknown;
  accountId?: string;
  /** Defaults to a fresh temp directory. */
  stateDir?: string;
  logger?: Logger;
  /** Call `instance.start()` (default true). */
  start?: boolean;
}

/** A plugin instance running outside the gateway, with what it emitted and its webhook host. */
export interface RunningChannel {
  readonly instance: ChannelInstance;
  readonly ctx: ChannelContext<unknown>;
  /** Every inbound event the instance emitted, in order. */
  readonly events: InboundEvent[];
  /** Base URL its `/hooks/<id>/…` routes are served on. */
  readonly hooksUrl: string;
  /** Resolves with the first emitted event (already emitted or future) that matches. */
  waitForEvent<E extends InboundEvent>(match: (event: InboundEvent) => event is E, timeoutMs?: number): Promise<E>;
  waitForEvent(match: (event: InboundEvent) => boolean, timeoutMs?: number): Promise<InboundEvent>;
  stop(): Promise<void>;
}

/** Validates `config` with the plugin's own schema, or throws `E_INVALID_INPUT` naming each issue. */
export async function validatePluginConfig<T>(plugin: ChannelPlugin<T>, config: unknown): Promise<T> {
  const result = await plugin.configSchema["~standard"].validate(config);
  if (result.issues) {
    const problems = result.issues.map((issue) => {
      const path = (issue.path ?? []).map((p) => (typeof p === "object" ? String(p.key) : String(p))).join(".");
      return `channels.${plugin.id}${path ? `.${path}` : ""}: ${issue.message}`;
    });
    throw new ChorusError("E_INVALID_INPUT", `invalid config: ${problems.join("; ")}`);
  }
  return result.value;
}

/** Creates (and by default starts) a plugin instance the way the gateway would, for tests. */
export async function startChannel<T>(plugin: ChannelPlugin<T>, options: StartChannelOptions): Promise<RunningChannel> {
  const config = await validatePluginConfig(plugin, options.config);
  const ownStateDir = options.stateDir === undefined;
  const stateDir = options.stateDir ?? (await mkdtemp(join(tmpdir(), `chorus-${plugin.id}-`)));
  const routes = new Map<string, HttpHandler>();
  const events: InboundEvent[] = [];
  const abort = new AbortController();
  const server = createServer((req, res) => {
    void dispatch(routes, plugin.id, req).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await listen(server);
  const address = server.address();
  const hooksUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  const ctx: ChannelContext<T> = {
    config,
    accountId: options.accountId ?? "default",
    stateDir,
    logger: options.logger ?? silentLogger,
    signal: abort.signal,
    emit: (event) => {
      events.push(event);
    },
    http: {
      route: (method: HttpMethod, path: string, handler: HttpHandler) => {
        routes.set(`${method} ${normalizePath(path)}`, handler);
      },
      url: (path: string) => `${hooksUrl}/hooks/${plugin.id}${normalizePath(path)}`,
    },
  };
  const closeServer = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // A temp state dir made here is removed with the instance; one the caller gave is theirs.
    if (ownStateDir) await rm(stateDir, { recursive: true, force: true });
  };
  let instance: ChannelInstance;
  try {
    instance = await plugin.create(ctx);
    if (options.start !== false) await instance.start();
  } catch (error) {
    abort.abort();
    await closeServer();
    throw error;
  }

  const waitForEvent = async (match: (event: InboundEvent) => boolean, timeoutMs = 5000) => {
    await waitFor(() => events.some(match), { timeoutMs });
    return events.find(match) as InboundEvent;
  };
  return {
    instance,
    ctx: ctx as ChannelContext<unknown>,
    events,
    hooksUrl,
    waitForEvent: waitForEvent as RunningChannel["waitForEvent"],
    async stop() {
      abort.abort();
      try {
        await instance.stop();
      } finally {
        await closeServer();
      }
    },
  };
}

async function dispatch(routes: Map<string, HttpHandler>, id: string, req: IncomingMessage): Promise<Response> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const prefix = `/hooks/${id}`;
  const handler = url.pathname.startsWith(prefix)
    ? routes.get(`${req.method} ${normalizePath(url.pathname.slice(prefix.length))}`)
    : undefined;
  if (!handler) return Response.json({ error: "no route" }, { status: 404 });
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = chunks.length > 0 && req.method !== "GET" ? Buffer.concat(chunks) : undefined;
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(key, value);
  try {
    return await handler(new Request(url, { method: req.method ?? "GET", headers, ...(body ? { body } : {}) }));
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 500 });
  }
}

function normalizePath(path: string): string {
  const withSlash = path.startsWith("/") ? path : `/${path}`;
  return withSlash.length > 1 && withSlash.endsWith("/") ? withSlash.slice(0, -1) : withSlash;
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
}
