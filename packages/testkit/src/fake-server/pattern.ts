import type { PathPattern } from "./types.js";

/** Path params captured by a pattern. */
export type PathParams = Record<string, string>;

/** A pattern turned into a matcher: params when the path matches, undefined when not. */
export type PathMatcher = (path: string) => PathParams | undefined;

const TOKEN = /:([A-Za-z_$][\w$]*)|\*/g;

/** Compiles `:name` / `*` string patterns (or a RegExp) into a matcher on the raw pathname. */
export function compilePattern(pattern: PathPattern): PathMatcher {
  if (pattern instanceof RegExp) return compileRegExp(pattern);
  const names: string[] = [];
  let source = "";
  let last = 0;
  let wildcards = 0;
  for (const token of pattern.matchAll(TOKEN)) {
    source += escapeRegExp(pattern.slice(last, token.index));
    if (token[1] === undefined) {
      wildcards += 1;
      names.push(wildcards === 1 ? "*" : `*${wildcards}`);
      source += "(.*)";
    } else {
      names.push(token[1]);
      source += "([^/]+)";
    }
    last = token.index + token[0].length;
  }
  source += escapeRegExp(pattern.slice(last));
  const trailingSlash = pattern.endsWith("/") || pattern.endsWith("*") ? "" : "/?";
  const regexp = new RegExp(`^${source}${trailingSlash}$`);
  return (path) => {
    const found = regexp.exec(path);
    if (!found) return undefined;
    const params: PathParams = {};
    names.forEach((name, i) => {
      params[name] = safeDecode(found[i + 1] ?? "");
    });
    return params;
  };
}

/** True when `pattern` (case-insensitive, `"*"` = any) accepts `method`. */
export function matchesMethod(pattern: string | undefined, method: string): boolean {
  return pattern === undefined || pattern === "*" || pattern.toUpperCase() === method.toUpperCase();
}

/** A short human form of a method and pattern, for messages. */
export function describeRoute(method: string | undefined, pattern: PathPattern | undefined): string {
  return `${method ?? "*"} ${pattern === undefined ? "*" : String(pattern)}`;
}

function compileRegExp(pattern: RegExp): PathMatcher {
  const regexp = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ""));
  return (path) => {
    const found = regexp.exec(path);
    if (!found) return undefined;
    const params: PathParams = {};
    for (const [name, value] of Object.entries(found.groups ?? {})) {
      if (value !== undefined) params[name] = safeDecode(value);
    }
    return params;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
