import type { PathPattern, RequestContext, ResponseHeaders } from "./types.js";

/** Which requests a fault hits: method (`"*"` or absent = any), path pattern, and an optional predicate. */
export interface FaultMatch {
  method?: string;
  path?: PathPattern;
  where?: (ctx: RequestContext) => boolean;
}

/** Answer 429 (or `status`) with a `Retry-After` header; `body` (JSON) overrides the default body. */
export interface RateLimitFault {
  kind: "rateLimit";
  retryAfterSeconds: number;
  status?: number;
  body?: unknown;
  headers?: ResponseHeaders;
}

/** Answer with `status` (500, 502, 503, …) and an optional JSON `body`. */
export interface StatusFault {
  kind: "status";
  status: number;
  body?: unknown;
  headers?: ResponseHeaders;
}

/** Wait `ms`, then let the real handler answer. */
export interface DelayFault {
  kind: "delay";
  ms: number;
}

/** Answer 200 with a JSON content type and a body that is not JSON. */
export interface MalformedFault {
  kind: "malformed";
  body?: string;
}

/** Destroy the connection without answering. */
export interface ResetFault {
  kind: "reset";
}

/** Never answer (until the server closes). */
export interface HangFault {
  kind: "hang";
}

/** What a fault does to the request it hits. */
export type FaultEffect = RateLimitFault | StatusFault | DelayFault | MalformedFault | ResetFault | HangFault;

/** The name of a fault's effect, also stored on the requests it answered. */
export type FaultKind = FaultEffect["kind"];

/** A misbehaviour to inject: which requests (`match`), how many of them (`times`, default 1), and what happens. */
export type Fault = FaultEffect & {
  match?: FaultMatch;
  /** How many matching requests it hits; default 1, `Infinity` for all. */
  times?: number;
};

/** `times` for any helper. */
export interface FaultTimes {
  times?: number;
}

/** The default broken body of a `malformed` fault. */
export const MALFORMED_BODY = '{"ok": true, "result": {"id": "1", "text": "unterminated';

/** Constructors for every fault kind; each takes the `FaultMatch` first. */
export const faults = {
  /** Answer 429 with `Retry-After: retryAfterSeconds` (status, JSON body and extra headers overridable). */
  rateLimit(
    match: FaultMatch,
    retryAfterSeconds: number,
    options: FaultTimes & Omit<RateLimitFault, "kind" | "retryAfterSeconds"> = {},
  ): Fault {
    return { ...options, kind: "rateLimit", match, retryAfterSeconds };
  },
  /** Answer 500 (or `status`, e.g. 502/503) with an optional JSON body. */
  serverError(match: FaultMatch, options: FaultTimes & Partial<Omit<StatusFault, "kind">> = {}): Fault {
    return { ...options, kind: "status", match, status: options.status ?? 500 };
  },
  /** Hold the request `ms` milliseconds, then let the real handler answer. */
  delay(match: FaultMatch, ms: number, options: FaultTimes = {}): Fault {
    return { ...options, kind: "delay", match, ms };
  },
  /** Answer 200 `application/json` with a body that does not parse. */
  malformed(match: FaultMatch, options: FaultTimes & { body?: string } = {}): Fault {
    return { ...options, kind: "malformed", match };
  },
  /** Destroy the socket without an answer. */
  reset(match: FaultMatch, options: FaultTimes = {}): Fault {
    return { ...options, kind: "reset", match };
  },
  /** Never answer until the server closes. */
  hang(match: FaultMatch, options: FaultTimes = {}): Fault {
    return { ...options, kind: "hang", match };
  },
};

/** How a whole platform misbehaves in the contract suite's fault cases. */
export type PlatformFault = "refuse" | "close" | "hang" | "garbage";

/**
 * The fake-server fault that makes every matching request misbehave like `kind` until the faults
 * are cleared: `refuse` answers 503, `close` drops the connection, `hang` never answers, `garbage`
 * answers 200 with a body that is not JSON.
 */
export function outage(kind: PlatformFault, match: FaultMatch = {}): Fault {
  const times = Number.POSITIVE_INFINITY;
  switch (kind) {
    case "refuse":
      return { kind: "status", status: 503, body: { error: "service_unavailable" }, match, times };
    case "close":
      return { kind: "reset", match, times };
    case "hang":
      return { kind: "hang", match, times };
    case "garbage":
      return { kind: "malformed", body: "<html><body>502 Bad Gateway</body></html>", match, times };
  }
}
