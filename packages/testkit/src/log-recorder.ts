import type { Logger } from "@chorus/core";

export type LogLevel = "debug" | "info" | "warn" | "error";

/** One line a plugin logged. */
export interface LogRecord {
  readonly level: LogLevel;
  readonly message: string;
  /** The fields of the line, with the bindings of the child logger it came from. */
  readonly fields: Readonly<Record<string, unknown>>;
}

/**
 * A logger that keeps every line (tests read them: a warning for a payload the plugin could not
 * parse, no secret anywhere), and passes each one on to `forward` when given.
 */
export class LogRecorder {
  readonly records: LogRecord[] = [];

  constructor(private readonly forward?: Logger) {}

  /** The recording logger, for a plugin's context. */
  get logger(): Logger {
    return this.#logger({}, this.forward);
  }

  /** Lines at `level` (and above with `orAbove`). */
  at(level: LogLevel, orAbove = false): LogRecord[] {
    const order: LogLevel[] = ["debug", "info", "warn", "error"];
    const min = order.indexOf(level);
    return this.records.filter((r) => (orAbove ? order.indexOf(r.level) >= min : r.level === level));
  }

  /** Every line as one text (message and fields), for searching. */
  text(): string {
    return this.records.map((r) => `${r.level} ${r.message} ${safeJson(r.fields)}`).join("\n");
  }

  #logger(bindings: Record<string, unknown>, forward: Logger | undefined): Logger {
    const log =
      (level: LogLevel) =>
      (fields: Record<string, unknown> | string, message?: string): void => {
        const record =
          typeof fields === "string"
            ? { level, message: fields, fields: { ...bindings } }
            : { level, message: message ?? "", fields: { ...bindings, ...fields } };
        this.records.push(record);
        if (!forward) return;
        if (typeof fields === "string") forward[level](fields);
        else if (message === undefined) forward[level](fields);
        else forward[level](fields, message);
      };
    return {
      debug: log("debug"),
      info: log("info"),
      warn: log("warn"),
      error: log("error"),
      child: (more) => this.#logger({ ...bindings, ...more }, forward?.child(more)),
    };
  }
}

/**
 * JSON of log fields, events or errors for searching, with each error as its message, stack, cause
 * and own fields (`JSON.stringify` alone would give `ChorusError.toJSON`, without cause and stack).
 */
export function safeJson(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, item: unknown) {
    // `this[key]` is the value before its `toJSON` ran: an error must be searched whole.
    const original = this[key];
    if (original instanceof Error) {
      if (seen.has(original)) return "[circular]";
      seen.add(original);
      return {
        ...original,
        name: original.name,
        message: original.message,
        stack: original.stack,
        cause: original.cause,
      };
    }
    if (typeof item === "object" && item !== null) {
      if (seen.has(item)) return "[circular]";
      seen.add(item);
    }
    return typeof item === "bigint" ? String(item) : item;
  });
}
