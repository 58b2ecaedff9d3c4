import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import type { WebSocket } from "ws";
import { FakeServerError } from "./errors.js";
import { FaultQueue } from "./fault-queue.js";
import type { Fault } from "./faults.js";
import { handleRequest } from "./handle-request.js";
import { RequestLog, type WaitForRequestOptions } from "./request-log.js";
import { Router } from "./router.js";
import type { FakeServer, FakeServerOptions } from "./server-types.js";
import type { HandlerError, PathPattern, RecordedRequest, RequestMatch, RouteHandler } from "./types.js";
import { type WebSocketHandler, WebSocketHub } from "./websocket.js";

const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Creates a fake platform server; call `start()` to listen on 127.0.0.1. */
export function createFakeServer<TState = undefined>(options: FakeServerOptions<TState> = {}): FakeServer<TState> {
  return new NodeFakeServer(options);
}

class NodeFakeServer<TState> implements FakeServer<TState> {
  readonly #initialState: TState;
  #state: TState;
  readonly #router = new Router<RouteHandler<TState>>();
  readonly #faults = new FaultQueue();
  readonly #log = new RequestLog();
  readonly #errors: HandlerError[] = [];
  readonly #closing = new AbortController();
  readonly #connections = new Set<Socket>();
  readonly #http: Server;
  readonly #hub: WebSocketHub<TState>;
  readonly #port: number;
  #address: { url: string; port: number } | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: FakeServerOptions<TState>) {
    this.#initialState = structuredClone(options.state as TState);
    this.#state = structuredClone(this.#initialState);
    this.#port = options.port ?? 0;
    const state = (): TState => this.#state;
    this.#hub = new WebSocketHub({ log: this.#log, errors: this.#errors, state });
    const deps = {
      router: this.#router,
      faults: this.#faults,
      log: this.#log,
      errors: this.#errors,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      state,
      closing: this.#closing.signal,
    };
    this.#http = createServer((request, res) => {
      handleRequest(deps, request, res).catch((error: unknown) => {
        this.#errors.push({
          method: request.method ?? "GET",
          path: request.url ?? "/",
          message: String(error),
          error,
          at: Date.now(),
        });
        res.destroy();
      });
    });
    this.#http.on("connection", (socket: Socket) => {
      this.#connections.add(socket);
      socket.once("close", () => this.#connections.delete(socket));
    });
    this.#http.on("upgrade", (request, socket, head) => this.#hub.upgrade(request, socket, head));
  }

  async start(): Promise<string> {
    if (this.#closed) throw new FakeServerError("E_SERVER_STATE", "The fake server was closed; create a new one");
    if (this.#address) return this.#address.url;
    await new Promise<void>((resolve, reject) => {
      this.#http.once("error", reject);
      this.#http.listen(this.#port, "127.0.0.1", () => {
        this.#http.off("error", reject);
        resolve();
      });
    });
    const address = this.#http.address();
    if (address === null || typeof address === "string") {
      throw new FakeServerError("E_SERVER_STATE", "The fake server has no TCP address");
    }
    this.#address = { url: `http://127.0.0.1:${address.port}`, port: address.port };
    return this.#address.url;
  }

  close(): Promise<void> {
    this.#closed ??= this.#shutdown();
    return this.#closed;
  }

  async #shutdown(): Promise<void> {
    this.#closing.abort();
    this.#hub.terminateAll();
    if (!this.#http.listening) return;
    const stopped = new Promise<void>((resolve) => this.#http.close(() => resolve()));
    this.#http.closeAllConnections();
    for (const socket of this.#connections) socket.destroy();
    await stopped;
  }

  get url(): string {
    return this.#started().url;
  }

  get port(): number {
    return this.#started().port;
  }

  route(method: string, pattern: PathPattern, handler: RouteHandler<TState>): () => void {
    return this.#router.add(method, pattern, handler);
  }

  websocket(pattern: PathPattern, onConnection: WebSocketHandler<TState>): () => void {
    return this.#hub.add(pattern, onConnection);
  }

  get requests(): readonly RecordedRequest[] {
    return this.#log.all;
  }

  requestsTo(method: string, path: PathPattern): RecordedRequest[] {
    return this.#log.to(method, path);
  }

  clearRequests(): void {
    this.#log.clear();
  }

  waitForRequest(match: RequestMatch, options?: WaitForRequestOptions): Promise<RecordedRequest> {
    return this.#log.waitFor(match, options);
  }

  inject(fault: Fault): void {
    this.#faults.inject(fault);
  }

  get faults(): readonly Fault[] {
    return this.#faults.list();
  }

  clearFaults(): void {
    this.#faults.clear();
  }

  get errors(): readonly HandlerError[] {
    return [...this.#errors];
  }

  get sockets(): readonly WebSocket[] {
    return this.#hub.sockets;
  }

  dropWebSockets(code?: number, reason?: string): Promise<void> {
    return this.#hub.drop(code, reason);
  }

  get state(): TState {
    return this.#state;
  }

  reset(): void {
    this.#state = structuredClone(this.#initialState);
    this.#log.clear();
    this.#faults.clear();
    this.#errors.length = 0;
  }

  #started(): { url: string; port: number } {
    if (!this.#address)
      throw new FakeServerError("E_NOT_STARTED", "The fake server is not started; await start() first");
    return this.#address;
  }
}
