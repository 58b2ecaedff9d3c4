import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { searchParamsToObject } from "./body.js";
import type { RequestLog } from "./request-log.js";
import { Router } from "./router.js";
import type { HandlerError, PathPattern } from "./types.js";

/** What a WebSocket connection handler knows about the upgrade request. */
export interface WebSocketContext<TState = unknown> {
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  request: IncomingMessage;
  /** The server's current state. */
  state: TState;
}

/** Called once per accepted WebSocket connection. */
export type WebSocketHandler<TState = unknown> = (
  socket: WebSocket,
  ctx: WebSocketContext<TState>,
) => void | Promise<void>;

/** What the WebSocket hub needs from its server. */
export interface WebSocketHubDeps<TState> {
  log: RequestLog;
  errors: HandlerError[];
  state: () => TState;
}

/** How long a closing handshake may take before `drop` terminates the socket. */
const CLOSE_GRACE_MS = 1000;

/** WebSocket routes on the fake's HTTP server, and the sockets they accepted. */
export class WebSocketHub<TState> {
  readonly #router = new Router<WebSocketHandler<TState>>();
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #sockets = new Set<WebSocket>();
  readonly #deps: WebSocketHubDeps<TState>;

  constructor(deps: WebSocketHubDeps<TState>) {
    this.#deps = deps;
  }

  /** Accepts upgrades on paths matching `pattern`; returns a function that removes the route. */
  add(pattern: PathPattern, handler: WebSocketHandler<TState>): () => void {
    return this.#router.add("GET", pattern, handler);
  }

  /** The open sockets, oldest first. */
  get sockets(): readonly WebSocket[] {
    return [...this.#sockets];
  }

  /** Handles an HTTP `upgrade`: accepts it on a matching route, else answers 404. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const path = url.pathname;
    const query = searchParamsToObject(url.searchParams);
    const base = { method: "GET", path, query, headers: request.headers, rawBody: "", body: "", at: Date.now() };
    const record = (status: number): void => this.#deps.log.record({ ...base, status });
    const found = this.#router.find("GET", path);
    if (!found) {
      const body = JSON.stringify({ error: "no websocket route", path });
      record(404);
      socket.end(
        `HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      return;
    }
    this.#wss.handleUpgrade(request, socket, head, (ws) => {
      this.#sockets.add(ws);
      ws.on("close", () => this.#sockets.delete(ws));
      const deps = this.#deps;
      const ctx: WebSocketContext<TState> = {
        path,
        params: found.params,
        query: url.searchParams,
        headers: request.headers,
        request,
        get state() {
          return deps.state();
        },
      };
      const fail = (error: unknown): void => {
        const message = error instanceof Error ? error.message : String(error);
        deps.errors.push({ method: "GET", path, message, error, at: Date.now() });
        ws.close(1011, "handler crashed");
      };
      try {
        const result = found.handler(ws, ctx);
        if (result instanceof Promise) result.catch(fail);
      } catch (error) {
        fail(error);
      }
      record(101);
    });
  }

  /** Closes every open socket — with `code` (a closing handshake) or, without one, abruptly — and waits for them. */
  async drop(code?: number, reason?: string): Promise<void> {
    await Promise.all([...this.#sockets].map((ws) => closeSocket(ws, code, reason)));
  }

  /** Terminates every socket at once; used when the server closes. */
  terminateAll(): void {
    for (const ws of this.#sockets) ws.terminate();
    this.#sockets.clear();
    this.#wss.close();
  }
}

function closeSocket(ws: WebSocket, code: number | undefined, reason: string | undefined): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    ws.once("close", () => resolve());
    if (code === undefined) {
      ws.terminate();
      return;
    }
    const timer = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    ws.once("close", () => clearTimeout(timer));
    ws.close(code, reason);
  });
}
