import { Redactor } from "@chorus/channel-kit";
import type { Logger as CoreLogger } from "@chorus/core";
import { type DestinationStream, type Logger, type LoggerOptions as PinoOptions, pino } from "pino";
import { redactLogValue } from "./log-redaction.js";

export interface LoggerOptions {
  verbose?: boolean;
  /** Where lines go; stdout by default. */
  destination?: DestinationStream;
  /** `json` lines, or `pretty` ones for a person; default from `logFormat()`. */
  format?: LogFormat;
  /**
   * Removes secrets by value from every message, field, error and child binding (the gateway's:
   * built from its config and environment, see `gatewaySecrets`); default one that knows only
   * secret shapes (bearer headers, passwords in URLs, bot tokens).
   */
  redactor?: Redactor;
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

/**
 * The gateway's one logger (pino), with secrets redacted — by key name (`REDACTED_KEYS`) and by
 * value (`options.redactor`) — from every message, field, error and child binding; JSON lines, or
 * pretty ones on a terminal.
 */
export function createLogger(options: LoggerOptions = {}): Logger & CoreLogger {
  const level = options.verbose ? "debug" : (process.env.CHORUS_LOG_LEVEL ?? "info");
  const destination = options.destination ?? pino.destination(1);
  const format = options.format ?? logFormat();
  const redactor = options.redactor ?? new Redactor();
  const logger = pino(
    { level, base: null, hooks: { logMethod: redactedArguments(redactor) } },
    format === "pretty" ? prettyLines(destination) : destination,
  );
  // Children inherit this `child` (pino makes them with `Object.create(parent)`): every binding, at any depth.
  const child = logger.child;
  logger.child = function (this: Logger, bindings, childOptions) {
    return child.call(this, redactLogValue(redactor, bindings) as typeof bindings, childOptions);
  } as Logger["child"];
  return logger as Logger & CoreLogger;
}

/**
 * Pino's hook that passes a line's parts through the redactor before they are serialised: the
 * message, its interpolated arguments and its fields. Part by part rather than over the written
 * line: a secret shape's pattern run over a whole JSON line could match across two fields and cut
 * the line apart.
 */
function redactedArguments(redactor: Redactor): NonNullable<NonNullable<PinoOptions["hooks"]>["logMethod"]> {
  return function (args, method) {
    const redacted = args.map((arg: unknown) => redactLogValue(redactor, arg));
    return method.apply(this, redacted as Parameters<typeof method>);
  };
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
