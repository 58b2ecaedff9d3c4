import type { Logger as CoreLogger } from "@chorus/core";
import { type DestinationStream, type Logger, pino } from "pino";

/** Keys whose values never reach a log line, wherever they appear. */
export const REDACTED_PATHS = [
  "token",
  "*.token",
  "*.*.token",
  "apiKey",
  "*.apiKey",
  "*.*.apiKey",
  "password",
  "*.password",
  "*.*.password",
  "secret",
  "*.secret",
  "*.*.secret",
  "botToken",
  "*.botToken",
  "*.*.botToken",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
];

export interface LoggerOptions {
  verbose?: boolean;
  /** Where lines go; stdout by default. */
  destination?: DestinationStream;
}

/** The gateway's one logger (pino, JSON lines), with secrets redacted. */
export function createLogger(options: LoggerOptions = {}): Logger & CoreLogger {
  const level = options.verbose ? "debug" : (process.env.CHORUS_LOG_LEVEL ?? "info");
  return pino(
    { level, base: undefined, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } },
    options.destination ?? pino.destination(1),
  ) as Logger & CoreLogger;
}
