type LogFn = {
  (message: string): void;
  (fields: Record<string, unknown>, message?: string): void;
};

/** The logging surface a plugin gets; pino-compatible, so the gateway passes a pino child. */
export interface Logger {
  readonly debug: LogFn;
  readonly info: LogFn;
  readonly warn: LogFn;
  readonly error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}

/** A logger that drops everything (for tests and tools that want silence). */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};
