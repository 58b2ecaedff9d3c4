import type { MiddlewareHandler } from "hono";
import { isLoopback } from "../config/index.js";

/** What decides which `Host` and `Origin` names the gateway serves. */
export interface HostPolicyConfig {
  /** `gateway.bind`: the check applies only while it is a loopback address. */
  bind: string;
  /** `gateway.publicUrl`: its name is served too (a deployment behind a proxy). */
  publicUrl?: string | undefined;
  /** `gateway.allowedOrigins`: origins (`https://chat.example.com`) whose names and pages are served too. */
  allowedOrigins?: readonly string[] | undefined;
}

/**
 * Which names a request may address the gateway by (DNS rebinding protection, as the MCP
 * specification requires of a local server). While bound to loopback: a `Host` of `localhost`,
 * `127.0.0.1` or `[::1]` (any port) or a configured name, and an `Origin`, when sent, of such a
 * name or a configured origin. Bound elsewhere, every name is served (the bearer token guards it).
 */
export class HostPolicy {
  readonly #enforced: boolean;
  readonly #hostnames: ReadonlySet<string>;
  readonly #origins: ReadonlySet<string>;

  constructor(config: HostPolicyConfig) {
    this.#enforced = isLoopback(config.bind);
    const configured = [...(config.publicUrl ? [config.publicUrl] : []), ...(config.allowedOrigins ?? [])].map(
      (url) => new URL(url),
    );
    this.#hostnames = new Set(configured.map((url) => url.hostname.toLowerCase()));
    this.#origins = new Set(configured.map((url) => url.origin));
  }

  /** Why a request with these headers is refused, or undefined when it is served. */
  refusal(host: string | undefined, origin: string | undefined): string | undefined {
    if (!this.#enforced) return undefined;
    const hostname = host !== undefined && HOST_HEADER.test(host) ? hostnameOf(`http://${host}`) : undefined;
    if (hostname === undefined || !(isLocalName(hostname) || this.#hostnames.has(hostname))) {
      return `Host ${JSON.stringify(host ?? "")} is not served here: the gateway listens on loopback and answers only localhost, 127.0.0.1 and [::1] (add the name you reach it by to gateway.allowedOrigins or gateway.publicUrl)`;
    }
    if (origin === undefined) return undefined;
    const from = hostnameOf(origin);
    if (from !== undefined && (isLocalName(from) || this.#origins.has(new URL(origin).origin))) return undefined;
    return `Origin ${JSON.stringify(origin)} is not allowed: pages from other sites may not call the gateway (add it to gateway.allowedOrigins)`;
  }
}

/** A `Host` header as HTTP/1.1 has it: a name or IPv4 address, or an IPv6 one in brackets, and a port. */
const HOST_HEADER = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** A name only this machine answers to: `localhost`, `127.0.0.1`, `[::1]`. */
function isLocalName(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}

/** The lower-cased host name of a URL (IPv6 in brackets), or undefined when it is not one. */
function hostnameOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** Paths a browser page on another site must not reach: the API and MCP (webhooks stay open to any name). */
const GUARDED = /^\/(v1(\/|$)|mcp(\/|$))/;

/** Refuses requests to `/v1/*` and `/mcp` addressed by a name `policy` does not serve: 403 with a JSON error. */
export function hostCheck(policy: HostPolicy | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (!policy || !GUARDED.test(c.req.path)) return next();
    const reason = policy.refusal(c.req.header("host"), c.req.header("origin"));
    if (reason === undefined) return next();
    return c.json({ ok: false, error: { code: "E_AUTH", message: reason } }, 403);
  };
}
