import { isIPv4, isIPv6 } from "node:net";
import { isLoopback } from "../config/index.js";

/** Where a host can be reached from: this machine only, a local network, or the internet. */
export type Reach = "loopback" | "private" | "public";

/** How far a URL's host reaches (by address or name; no DNS lookup). */
export function reachOf(url: string): Reach {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  } catch {
    return "loopback";
  }
  if (isLoopback(host) || host === "0.0.0.0" || host === "::") return "loopback";
  if (isIPv4(host)) {
    const [a, b] = host.split(".").map(Number) as [number, number];
    const lan = a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
    return lan || (a === 100 && b >= 64 && b <= 127) ? "private" : "public";
  }
  if (isIPv6(host)) return /^(fc|fd|fe8|fe9|fea|feb)/.test(host) ? "private" : "public";
  if (!host.includes(".") || /\.(local|lan|internal|home\.arpa|localdomain)$/.test(host)) return "private";
  return "public";
}

/** Whether a webhook URL can be reached by the platform that calls it. */
export interface WebhookCheck {
  level: "ok" | "warning" | "error";
  url: string;
  detail: string;
  fix?: string;
}

const RANK: Record<Reach, number> = { loopback: 0, private: 1, public: 2 };

/**
 * Checks a webhook URL against who calls it: a platform on the internet needs a public address
 * (https), a server on the local network at least a non-loopback one.
 */
export function checkWebhook(url: string, platformUrl: string | undefined, fix: string): WebhookCheck {
  const caller: Reach = platformUrl === undefined ? "public" : reachOf(platformUrl);
  const reach = reachOf(url);
  const who =
    platformUrl === undefined ? "the platform (on the internet)" : `the server at ${new URL(platformUrl).origin}`;
  if (RANK[reach] < RANK[caller]) {
    const where =
      reach === "loopback" ? "a loopback address: only this machine can reach it" : "a local-network address";
    return { level: "error", url, detail: `webhook ${url} is ${where}, but ${who} must reach it`, fix };
  }
  if (caller === "public" && !url.startsWith("https:")) {
    return { level: "warning", url, detail: `webhook ${url} is not https: most platforms refuse plain http`, fix };
  }
  return { level: "ok", url, detail: `webhook ${url} can be reached by ${who}` };
}
