import { Zalo } from "zca-js";
import { createZaloFetch } from "./transport.js";

/**
 * zca-js as the channel runs it: no update check (it would ask the npm registry at every login),
 * its console logging off (the channel logs what matters through its own logger), its own
 * messages not echoed (`selfListen` off), and every request through the channel's transport.
 */
export function createZalo(options: {
  apiBase?: string | undefined;
  mediaHosts?: readonly string[] | undefined;
  timeoutMs: number;
  signal: AbortSignal;
}): Zalo {
  return new Zalo({
    checkUpdate: false,
    logging: false,
    selfListen: false,
    polyfill: createZaloFetch({
      ...(options.apiBase ? { apiBase: options.apiBase } : {}),
      ...(options.mediaHosts ? { mediaHosts: options.mediaHosts } : {}),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    }),
  });
}
