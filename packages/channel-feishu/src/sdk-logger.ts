import { isChorusError, type Logger } from "@chorus/core";
import { NOT_ACKNOWLEDGED } from "./receive.js";

/** The logger shape the SDK calls: each level gets one array of things to print. */
export interface SdkLogger {
  error(...msg: unknown[]): void;
  warn(...msg: unknown[]): void;
  info(...msg: unknown[]): void;
  debug(...msg: unknown[]): void;
  trace(...msg: unknown[]): void;
}

/**
 * SDK lines that are routine, not a problem: events nobody subscribed a handler for, and an event
 * the receiver did not acknowledge (it logged why; Feishu pushes it again).
 */
const ROUTINE = [/^no \S+ (event )?handle$/u, /handle is already registered/u, new RegExp(NOT_ACKNOWLEDGED, "u")];

/**
 * The SDK's logging, routed into the channel's (already redacting) logger: its errors and
 * warnings become warnings (an error the plugin itself reports, a `ChorusError`, only a debug
 * line), its chatter debug lines. `onWsProblem` hears every long-connection complaint, which is
 * the reason a degraded status gives.
 */
export function sdkLogger(logger: Logger, onWsProblem: (text: string) => void): SdkLogger {
  const line = (parts: unknown[]) => parts.flat(Number.POSITIVE_INFINITY).map(describe).join(" ").trim();
  const problem = (parts: unknown[]) => {
    const text = line(parts);
    if (text.startsWith("[ws]") || text.startsWith("ws ")) onWsProblem(text.replace(/^\[ws\]\s*/u, ""));
    const handled = parts.flat(Number.POSITIVE_INFINITY).some((part) => isChorusError(part));
    if (handled || ROUTINE.some((pattern) => pattern.test(text))) logger.debug(`feishu sdk: ${text}`);
    else logger.warn(`feishu sdk: ${text}`);
  };
  return {
    error: (...msg) => problem(msg),
    warn: (...msg) => problem(msg),
    info: (...msg) => logger.debug(`feishu sdk: ${line(msg)}`),
    debug: (...msg) => logger.debug(`feishu sdk: ${line(msg)}`),
    trace: () => {},
  };
}

function describe(part: unknown): string {
  if (typeof part === "string") return part;
  if (part instanceof Error) return part.message;
  try {
    return JSON.stringify(part) ?? String(part);
  } catch {
    return String(part);
  }
}
