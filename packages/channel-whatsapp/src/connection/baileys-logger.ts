import type { Logger } from "@chorus/core";
import type { ILogger } from "@whiskeysockets/baileys/lib/Utils/logger.js";

/**
 * Baileys' logger interface on top of the gateway's (pino-compatible) logger. Baileys is chatty:
 * its `info` is routine (connected, pre-keys, offline notifications) and goes to `debug`, its
 * `error` is mostly recoverable (a restart after pairing logs "stream errored out") and goes to
 * `warn`; `trace` is dropped. The level Baileys sees is `info`, which keeps it from building
 * XML dumps of every frame for trace and debug logging.
 */
export function baileysLogger(logger: Logger): ILogger {
  const forward =
    (level: "debug" | "warn") =>
    (first: unknown, message?: string): void => {
      // Called as a method: pino's log functions need their logger as `this`.
      if (typeof first === "string") logger[level](first);
      else if (typeof first === "object" && first !== null) logger[level](first as Record<string, unknown>, message);
      else logger[level]({ value: first }, message);
    };
  return {
    level: "info",
    child: (bindings) => baileysLogger(logger.child(bindings)),
    trace: () => {},
    debug: forward("debug"),
    info: forward("debug"),
    warn: forward("warn"),
    error: forward("warn"),
  };
}
