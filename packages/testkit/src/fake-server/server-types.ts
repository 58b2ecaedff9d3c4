import type { WebSocket } from "ws";
import type { Fault } from "./faults.js";
import type { WaitForRequestOptions } from "./request-log.js";
import type { HandlerError, PathPattern, RecordedRequest, RequestMatch, RouteHandler } from "./types.js";
import type { WebSocketHandler } from "./websocket.js";

/** Options of `createFakeServer`. */
export interface FakeServerOptions<TState> {
  /** The initial state (structured-cloneable); `server.state` starts as, and `reset()` restores, a clone of it. */
  state?: TState;
  /** Request bodies larger than this are answered 413; default 10 MiB. */
  maxBodyBytes?: number;
  /** Port on 127.0.0.1; default 0 (a free port). */
  port?: number;
}

/** A stateful fake platform server on 127.0.0.1 that real client libraries talk to. */
export interface FakeServer<TState = undefined> {
  /** Starts listening; resolves with the base URL, `http://127.0.0.1:PORT`. */
  start(): Promise<string>;
  /** Stops listening and destroys every connection (keep-alive, hung, WebSocket); safe to call twice. */
  close(): Promise<void>;
  /** The base URL; throws before `start()`. */
  readonly url: string;
  /** The port; throws before `start()`. */
  readonly port: number;

  /** Answers `method` (`"*"` = any) requests on `pattern`; the newest matching route wins. Returns an unregister function. */
  route(method: string, pattern: PathPattern, handler: RouteHandler<TState>): () => void;
  /** Accepts WebSocket upgrades on `pattern`; unmatched upgrades get a 404. Returns an unregister function. */
  websocket(pattern: PathPattern, onConnection: WebSocketHandler<TState>): () => void;

  /** A snapshot of every request answered so far (WebSocket upgrades included), oldest first. */
  readonly requests: readonly RecordedRequest[];
  /** The recorded requests with this method (`"*"` = any) and path pattern. */
  requestsTo(method: string, path: PathPattern): RecordedRequest[];
  /** Forgets the recorded requests. */
  clearRequests(): void;
  /** Resolves with the first matching request (from index `since`, default 0), waiting up to `timeoutMs` (5000). */
  waitForRequest(match: RequestMatch, options?: WaitForRequestOptions): Promise<RecordedRequest>;

  /** Queues a fault; faults are consumed in injection order. */
  inject(fault: Fault): void;
  /** The pending faults, each with `times` set to its remaining uses. */
  readonly faults: readonly Fault[];
  /** Drops every pending fault (the platform heals). */
  clearFaults(): void;

  /** Handlers that threw (answered 500); assert it is empty to know no handler crashed. */
  readonly errors: readonly HandlerError[];

  /** The open WebSockets, oldest first. */
  readonly sockets: readonly WebSocket[];
  /** Closes every open WebSocket (with `code`, else abruptly) and waits until they are closed. */
  dropWebSockets(code?: number, reason?: string): Promise<void>;

  /** The fake's mutable state. */
  readonly state: TState;
  /** Restores a fresh copy of the initial state and clears requests, faults and errors. */
  reset(): void;
}
