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

/** JSON of log fields, with errors as their message and stack (JSON.stringify drops them). */
export function safeJson(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_, item: unknown) => {
    if (item instanceof Error) {
      return { ...item, name: item.name, message: item.message, stack: item.stack, cause: item.cause };
    }
    if (typeof item === "object" && item !== null) {
      if (seen.has(item)) return "[circular]";
      seen.add(item);
    }
    return typeof item === "bigint" ? String(item) : item;
  });
}
