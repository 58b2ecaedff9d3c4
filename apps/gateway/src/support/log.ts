import type { Logger as CoreLogger } from "@chorus/core";
import type { DestinationStream, Logger } from "pino";
import { requirePackage } from "./require-package.js";

const { pino } = requirePackage("pino") as typeof import("pino");

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
  /** `json` lines, or `pretty` ones for a person; default from `logFormat()`. */
  format?: LogFormat;
}

export type LogFormat = "json" | "pretty";

/**
 * How the log is written: `CHORUS_LOG_FORMAT` (`json` or `pretty`) when set, else pretty on a
 * terminal and JSON lines everywhere else (a service manager, a container, a pipe).
 */
export function logFormat(env: NodeJS.ProcessEnv = process.env, isTTY = process.stdout.isTTY === true): LogFormat {
  const chosen = env.CHORUS_LOG_FORMAT?.trim().toLowerCase();
  if (chosen === "json" || chosen === "pretty") return chosen;
  return isTTY ? "pretty" : "json";
}

/** The gateway's one logger (pino), with secrets redacted; JSON lines, or pretty ones on a terminal. */
export function createLogger(options: LoggerOptions = {}): Logger & CoreLogger {
  const level = options.verbose ? "debug" : (process.env.CHORUS_LOG_LEVEL ?? "info");
  const destination = options.destination ?? pino.destination(1);
  const format = options.format ?? logFormat();
  return pino(
    { level, base: null, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } },
    format === "pretty" ? prettyLines(destination) : destination,
  ) as Logger & CoreLogger;
}

const LEVELS: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };

/** A destination that turns pino's JSON lines into `12:00:01 INFO message key=value …`. */
export function prettyLines(destination: DestinationStream): DestinationStream {
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        destination.write(line);
        return;
      }
      const { time, level, msg, ...rest } = entry;
      const at = typeof time === "number" ? new Date(time).toISOString().slice(11, 19) : "";
      const fields = Object.entries(rest)
        .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
        .join(" ");
      const name = LEVELS[Number(level)] ?? String(level);
      destination.write(`${at} ${name.padEnd(5)} ${String(msg ?? "")}${fields ? `  ${fields}` : ""}\n`);
    },
  };
}
