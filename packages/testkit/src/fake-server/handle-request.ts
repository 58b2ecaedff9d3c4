import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { isBytesBody, lazyBody, parseBody, readBody, searchParamsToObject } from "./body.js";
import { HttpError, InvalidJsonError } from "./errors.js";
import type { FaultQueue } from "./fault-queue.js";
import type { FaultKind } from "./faults.js";
import type { RequestLog } from "./request-log.js";
import type { Router } from "./router.js";
import type { FakeResponse, HandlerError, RecordedRequest, RequestContext, RouteHandler } from "./types.js";
import { faultResponse, writeResponse } from "./write-response.js";

/** What the request pipeline needs from its server. */
export interface PipelineDeps<TState> {
  router: Router<RouteHandler<TState>>;
  faults: FaultQueue;
  log: RequestLog;
  errors: HandlerError[];
  maxBodyBytes: number;
  state: () => TState;
  /** Aborted when the server closes: pending delays give up. */
  closing: AbortSignal;
}

/** Reads, faults, routes, answers and records one HTTP request. */
export async function handleRequest<TState>(
  deps: PipelineDeps<TState>,
  request: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const at = Date.now();
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const method = (request.method ?? "GET").toUpperCase();
  const path = url.pathname;
  const base = { method, path, query: searchParamsToObject(url.searchParams), headers: request.headers, at };
  const read = await readBody(request, deps.maxBodyBytes);
  if (read.kind === "aborted") {
    deps.log.record({ ...base, rawBody: "", body: "", status: 0 });
    return;
  }
  if (read.kind === "tooLarge") {
    const json = { error: "body too large", limit: deps.maxBodyBytes, received: read.bytes };
    deps.log.record({ ...base, rawBody: "", body: "", status: 413 });
    writeResponse(res, { status: 413, json, headers: { connection: "close" } });
    return;
  }
  const lazy = lazyBody(read.raw);
  const contentType = request.headers["content-type"];
  const parsed = isBytesBody(contentType) ? undefined : { value: await parseBody(read.raw, contentType) };
  const body = parsed ? () => parsed.value : lazy.parsed;
  const found = deps.router.find(method, path);
  const ctx = createContext(deps, request, { method, path, query: url.searchParams, raw: read.raw, body, found });
  const outcome = await decide(deps, ctx, found?.handler);
  const status = outcome.response?.status ?? (outcome.response ? 200 : 0);
  const recorded = withBody(
    {
      ...base,
      status,
      answeredAt: Date.now(),
      ...(request.socket.destroyed ? { clientGone: true } : {}),
      ...(outcome.fault !== undefined ? { fault: outcome.fault } : {}),
    },
    lazy.text,
    body,
  );
  deps.log.record(recorded);
  if (outcome.response) writeResponse(res, outcome.response);
  else if (outcome.fault === "reset") request.socket.destroy();
}

/** How a request is answered: a response (maybe shaped by a fault), or no answer at all (reset, hang, closing). */
interface Outcome {
  response?: FakeResponse;
  fault?: FaultKind;
}

async function decide<TState>(
  deps: PipelineDeps<TState>,
  ctx: RequestContext<TState>,
  handler: RouteHandler<TState> | undefined,
): Promise<Outcome> {
  let delayed: FaultKind | undefined;
  const answer = (response: FakeResponse): Outcome => (delayed ? { response, fault: delayed } : { response });
  try {
    const fault = deps.faults.take(ctx);
    if (fault?.kind === "reset" || fault?.kind === "hang") return { fault: fault.kind };
    if (fault?.kind === "delay") {
      const completed = await sleep(fault.ms, true, { signal: deps.closing }).catch(() => false);
      if (!completed) return { fault: "delay" };
      delayed = "delay";
    }
    const injected = fault ? faultResponse(fault) : undefined;
    if (fault && injected) return { response: injected, fault: fault.kind };
    if (!handler) return answer({ status: 404, json: { error: "no route", method: ctx.method, path: ctx.path } });
    const response: FakeResponse | undefined = await handler(ctx);
    if (typeof response !== "object" || response === null) throw new TypeError("The handler returned no FakeResponse");
    return answer(response);
  } catch (error) {
    if (error instanceof HttpError) return answer({ status: error.status, json: error.body });
    const message = error instanceof Error ? error.message : String(error);
    deps.errors.push({ method: ctx.method, path: ctx.path, message, error, at: Date.now() });
    return answer({ status: 500, json: { error: "handler crashed", message } });
  }
}

interface ContextParts {
  method: string;
  path: string;
  query: URLSearchParams;
  raw: Buffer;
  /** The parsed body, made when first read. */
  body: () => unknown;
  found: { params: Record<string, string> } | undefined;
}

function createContext<TState>(
  deps: PipelineDeps<TState>,
  request: IncomingMessage,
  parts: ContextParts,
): RequestContext<TState> {
  const { raw } = parts;
  return {
    method: parts.method,
    path: parts.path,
    params: parts.found?.params ?? {},
    query: parts.query,
    headers: request.headers,
    rawBody: raw,
    get body() {
      return parts.body();
    },
    get state() {
      return deps.state();
    },
    text: () => raw.toString("utf8"),
    json<T>(): T {
      try {
        return JSON.parse(raw.toString("utf8")) as T;
      } catch (error) {
        throw new InvalidJsonError(error instanceof Error ? error.message : String(error));
      }
    },
    request,
  };
}

/** The request as recorded, its `rawBody` and `body` read (and for a bytes body, decoded) only when a test looks. */
function withBody(
  entry: Omit<RecordedRequest, "rawBody" | "body">,
  text: () => string,
  body: () => unknown,
): RecordedRequest {
  return Object.defineProperties(entry, {
    rawBody: { get: text, enumerable: true },
    body: { get: body, enumerable: true },
  }) as RecordedRequest;
}
