import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BoundedSet } from "@chorus/channel-kit";
import { FileStore } from "@chorus/channel-kit/state";
import {
  type ChannelContext,
  type ChannelInstance,
  type ChannelPlugin,
  type ChannelStore,
  ChorusError,
  type HttpHandler,
  type HttpMethod,
  type InboundEvent,
  type Logger,
} from "@chorus/core";
import { waitFor } from "./fake-server/index.js";
import { LogRecorder } from "./log-recorder.js";

export interface StartChannelOptions {
  /** The raw `channels.<id>` block; validated by the plugin's schema like the gateway does. */
  config: unknown;
  accountId?: string;
  /** Defaults to a fresh temp directory, removed on stop. */
  stateDir?: string;
  /**
   * The account's store. By default a store on disk: next to a given `stateDir` (so a second
   * `startChannel` on the same `stateDir` finds the same state, as after a gateway restart), else
   * in the temp directory.
   */
  store?: ChannelStore;
  /** Also receives every line the plugin logs (they are always recorded in `logs`). */
  logger?: Logger;
  /** Call `instance.start()` (default true). */
  start?: boolean;
}

/** A plugin instance running outside the gateway, with what it emitted and its webhook host. */
export interface RunningChannel {
  /** The current instance (a new one after `restart()`). */
  readonly instance: ChannelInstance;
  readonly ctx: ChannelContext<unknown>;
  /** Every inbound event the instance emitted, in order, each `eventId` once (as the gateway keeps them). */
  readonly events: InboundEvent[];
  /** Events dropped because their `eventId` had been emitted before (redeliveries). */
  readonly duplicates: InboundEvent[];
  /** Emits the host refused to commit (see `refuseCommit`), in order. */
  readonly refused: InboundEvent[];
  /**
   * The host fails the commit of the next `count` emitted events that match, as the gateway does
   * when its state is unreachable or a lease was lost: their `emit` rejects with a `ChorusError`.
   */
  refuseCommit(match: (event: InboundEvent) => boolean, count?: number): void;
  /** Every line the plugin logged. */
  readonly logs: LogRecorder;
  /** Base URL its `/hooks/<id>/…` routes are served on. */
  readonly hooksUrl: string;
  /** The webhook routes the plugin registered (`POST /webhook`). */
  readonly routes: readonly string[];
  readonly store: ChannelStore;
  /** Resolves with the first emitted event (already emitted or future) that matches. */
  waitForEvent<E extends InboundEvent>(match: (event: InboundEvent) => event is E, timeoutMs?: number): Promise<E>;
  waitForEvent(match: (event: InboundEvent) => boolean, timeoutMs?: number): Promise<InboundEvent>;
  /** Stops the instance and starts a new one on the same store, state dir and webhook host. */
  restart(): Promise<void>;
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

/** Event ids remembered for deduplication, as the gateway remembers them. */
const REMEMBERED_EVENTS = 10_000;

/** Creates (and by default starts) a plugin instance the way the gateway would, for tests. */
export async function startChannel<T>(plugin: ChannelPlugin<T>, options: StartChannelOptions): Promise<RunningChannel> {
  const config = await validatePluginConfig(plugin, options.config);
  const ownDir = options.stateDir === undefined ? await mkdtemp(join(tmpdir(), `chorus-${plugin.id}-`)) : undefined;
  const stateDir = options.stateDir ?? join(ownDir as string, "state");
  const store = options.store ?? new FileStore({ dir: join(stateDir, ".chorus-store"), warn: storeWarning });
  const routes = new Map<string, HttpHandler>();
  const events: InboundEvent[] = [];
  const duplicates: InboundEvent[] = [];
  const refused: InboundEvent[] = [];
  const refusals: { match: (event: InboundEvent) => boolean; left: number }[] = [];
  const seen = new BoundedSet<string>(REMEMBERED_EVENTS);
  const logs = new LogRecorder(options.logger);
  const server = createServer((req, res) => {
    void dispatch(routes, plugin.id, req, logs).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await listen(server);
  const address = server.address();
  const hooksUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const accountId = options.accountId ?? "default";

  function storeWarning(message: string, error?: unknown): void {
    logs.logger.warn({ err: error }, message);
  }

  const contextFor = (abort: AbortController): ChannelContext<T> => ({
    config,
    accountId,
    store,
    stateDir,
    logger: logs.logger,
    signal: abort.signal,
    emit: async (event) => {
      const refusal = refusals.find((r) => r.left > 0 && r.match(event));
      if (refusal) {
        refusal.left--;
        refused.push(event);
        throw new ChorusError("E_PLATFORM", "the host could not commit the event (its state database is unavailable)", {
          retryable: true,
        });
      }
      // The gateway drops a repeat of an eventId per account; so does this host (and commits at once).
      if (seen.add(event.eventId)) events.push(event);
      else duplicates.push(event);
    },
    http: {
      route: (method: HttpMethod, path: string, handler: HttpHandler) => {
        routes.set(`${method} ${normalizePath(path)}`, handler);
      },
      url: (path: string) => `${hooksUrl}/hooks/${plugin.id}${normalizePath(path)}`,
    },
  });
  const closeServer = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (store instanceof FileStore) await store.flush();
    // A temp dir made here is removed with the instance; a state dir the caller gave is theirs.
    if (ownDir) await rm(ownDir, { recursive: true, force: true });
  };
  const launch = async (): Promise<{ instance: ChannelInstance; ctx: ChannelContext<T>; abort: AbortController }> => {
    const abort = new AbortController();
    const ctx = contextFor(abort);
    try {
      const instance = await plugin.create(ctx);
      if (options.start !== false) await instance.start();
      return { instance, ctx, abort };
    } catch (error) {
      abort.abort();
      throw error;
    }
  };

  let current: Awaited<ReturnType<typeof launch>>;
  try {
    current = await launch();
  } catch (error) {
    await closeServer();
    throw error;
  }

  const waitForEvent = async (match: (event: InboundEvent) => boolean, timeoutMs = 5000) => {
    await waitFor(() => events.some(match), { timeoutMs });
    return events.find(match) as InboundEvent;
  };
  const stopCurrent = async () => {
    current.abort.abort();
    await current.instance.stop();
  };
  return {
    get instance() {
      return current.instance;
    },
    get ctx() {
      return current.ctx as ChannelContext<unknown>;
    },
    events,
    duplicates,
    refused,
    refuseCommit(match, count = 1) {
      refusals.push({ match, left: count });
    },
    logs,
    hooksUrl,
    get routes() {
      return [...routes.keys()];
    },
    store,
    waitForEvent: waitForEvent as RunningChannel["waitForEvent"],
    async restart() {
      await stopCurrent();
      current = await launch();
    },
    async stop() {
      try {
        await stopCurrent();
      } finally {
        await closeServer();
      }
    },
  };
}

async function dispatch(
  routes: Map<string, HttpHandler>,
  id: string,
  req: IncomingMessage,
  logs: LogRecorder,
): Promise<Response> {
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
    // The gateway answers a handler that throws with a bare 500 and logs the error; so does this host.
    logs.logger.error({ err: error, path: url.pathname }, "webhook handler failed");
    return Response.json({ error: "internal error" }, { status: 500 });
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
