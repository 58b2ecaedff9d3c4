import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { FaultKind } from "./faults.js";

/** A path pattern: `/bot:token/:method` style (`:name` params, `*` wildcard) or a RegExp (named groups → params). */
export type PathPattern = string | RegExp;

/** Header values a fake may answer with. */
export type ResponseHeaders = Record<string, string | number | string[]>;

/** What a route handler answers; `json` (serialised, content-type JSON) wins over `body`, `stream` over both. */
export interface FakeResponse {
  /** Defaults to 200. */
  status?: number;
  headers?: ResponseHeaders;
  json?: unknown;
  body?: string | Buffer;
  /**
   * A body written over time (Server-Sent Events, a chunked long poll): called with the open
   * response once the status and headers are sent; the fake writes and ends it when it likes.
   * `close()` of the server destroys it like every other connection.
   */
  stream?: (res: ServerResponse) => void;
}

/** Everything a route handler knows about one request. */
export interface RequestContext<TState = unknown> {
  method: string;
  /** The raw (not percent-decoded) pathname, without the query string. */
  path: string;
  /** Values of `:name` segments (decoded) and `*` wildcards (`"*"`, `"*2"`, …). */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** The body parsed like the request log does it (JSON, form, multipart fields, or the raw string). */
  body: unknown;
  /** The server's current state (see `FakeServer.state`). */
  state: TState;
  /** The body as UTF-8 text. */
  text(): string;
  /** The body parsed as JSON; throws `InvalidJsonError` (answered as 400) when it is not JSON. */
  json<T = unknown>(): T;
  request: IncomingMessage;
}

/** A route handler: a request in, a `FakeResponse` out. */
export type RouteHandler<TState = unknown> = (ctx: RequestContext<TState>) => FakeResponse | Promise<FakeResponse>;

/** One request as the fake saw and answered it. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Parsed JSON, form fields as an object, multipart fields, or the raw string. */
  body: unknown;
  /** The status the fake answered; 0 when it answered nothing (reset, hang, client gone). */
  status: number;
  /** Arrival time, `Date.now()` milliseconds. */
  at: number;
  /** When the answer was decided (after any delay fault), `Date.now()` milliseconds: `[at, answeredAt]` is how long it was open. */
  answeredAt?: number;
  /** The client had gone (closed its connection) by the time of the answer. */
  clientGone?: boolean;
  /** The fault that shaped the answer, if any. */
  fault?: FaultKind;
}

/** Selects recorded requests: by method and path pattern plus an optional predicate, or by a predicate alone. */
export type RequestMatch =
  | { method?: string; path?: PathPattern; where?: (request: RecordedRequest) => boolean }
  | ((request: RecordedRequest) => boolean);

/** A handler (HTTP or WebSocket) that threw instead of answering. */
export interface HandlerError {
  method: string;
  path: string;
  message: string;
  error: unknown;
  at: number;
}
