/**
 * Catches errors that escape a plugin's own handling while a contract run is on: a rejected
 * promise nobody awaited, an exception thrown from a timer. In the gateway each of these would
 * take the channel down (and without the gateway's containment, the whole process).
 */
export class EscapeWatch {
  readonly escaped: { kind: "unhandled rejection" | "uncaught exception"; error: unknown }[] = [];
  readonly #onRejection = (error: unknown) => {
    this.escaped.push({ kind: "unhandled rejection", error });
  };
  readonly #onException = (error: unknown) => {
    this.escaped.push({ kind: "uncaught exception", error });
  };

  start(): this {
    process.on("unhandledRejection", this.#onRejection);
    process.on("uncaughtException", this.#onException);
    return this;
  }

  stop(): void {
    process.off("unhandledRejection", this.#onRejection);
    process.off("uncaughtException", this.#onException);
  }

  /** The escapes, one line each. */
  describe(): string {
    return this.escaped
      .map(({ kind, error }) => `${kind}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
      .join("\n");
  }
}
