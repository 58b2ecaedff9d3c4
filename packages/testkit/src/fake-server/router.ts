import { compilePattern, matchesMethod, type PathMatcher, type PathParams } from "./pattern.js";
import type { PathPattern } from "./types.js";

interface Route<THandler> {
  method: string;
  match: PathMatcher;
  handler: THandler;
}

/** A route lookup result: the handler and the params its pattern captured. */
export interface RouteMatch<THandler> {
  handler: THandler;
  params: PathParams;
}

/** Method + path pattern → handler table; the most recently added matching route wins. */
export class Router<THandler> {
  readonly #routes: Route<THandler>[] = [];

  /** Adds a route and returns a function that removes it. */
  add(method: string, pattern: PathPattern, handler: THandler): () => void {
    const route: Route<THandler> = { method, match: compilePattern(pattern), handler };
    this.#routes.push(route);
    return () => {
      const index = this.#routes.indexOf(route);
      if (index >= 0) this.#routes.splice(index, 1);
    };
  }

  /** Finds the route for a request, newest first, so tests can override a fake's defaults. */
  find(method: string, path: string): RouteMatch<THandler> | undefined {
    for (let i = this.#routes.length - 1; i >= 0; i -= 1) {
      const route = this.#routes[i];
      if (route === undefined || !matchesMethod(route.method, method)) continue;
      const params = route.match(path);
      if (params) return { handler: route.handler, params };
    }
    return undefined;
  }
}
