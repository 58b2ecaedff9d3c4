import { ChorusError, type HttpHandler, type HttpMethod } from "@chorus/core";

/** Webhook routes plugins registered under `/hooks/<channel>/…` on the gateway's one HTTP server. */
export class HookRegistry {
  readonly #routes = new Map<string, HttpHandler>();

  /** Registers (or replaces, after a channel restart) a route; `path` is relative to `/hooks/<channel>`. */
  register(channel: string, method: HttpMethod, path: string, handler: HttpHandler): string {
    const full = hookPath(channel, path);
    this.#routes.set(`${method} ${full}`, handler);
    return full;
  }

  /** The handler for a request path, if a plugin registered one. */
  find(method: string, pathname: string): HttpHandler | undefined {
    return this.#routes.get(`${method.toUpperCase()} ${trimSlash(pathname)}`);
  }

  paths(): string[] {
    return [...this.#routes.keys()].sort();
  }

  /** The paths one channel registered (any method), sorted: what the platform must be told. */
  pathsOf(channel: string): string[] {
    const prefix = hookPath(channel, "/");
    const paths = [...this.#routes.keys()]
      .map((key) => key.slice(key.indexOf(" ") + 1))
      .filter((path) => path === prefix || path.startsWith(`${prefix}/`));
    return [...new Set(paths)].sort();
  }
}

/** `/hooks/<channel>/<path>` with exactly one slash between parts and none at the end. */
export function hookPath(channel: string, path: string): string {
  if (/[?#]/.test(path)) throw new ChorusError("E_INVALID_INPUT", `webhook path must not contain ? or #: ${path}`);
  const relative = path.startsWith("/") ? path : `/${path}`;
  return trimSlash(`/hooks/${channel}${relative === "/" ? "" : relative}`);
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}
