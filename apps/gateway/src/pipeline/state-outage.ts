import type { Logger } from "pino";

/**
 * Says once when the state database becomes unavailable and once when it is back, instead of a line
 * for every step, sweep and event that fails meanwhile (a sweep runs every second or five).
 */
export class StateOutage {
  #since: number | undefined;

  constructor(private readonly logger: Pick<Logger, "warn" | "info">) {}

  /** Since when the state is unavailable (ms since the epoch), or undefined while it is not. */
  get since(): number | undefined {
    return this.#since;
  }

  /** Work failed because the state is unavailable: the first failure of an outage is logged. */
  failed(error: Error): void {
    if (this.#since !== undefined) return;
    this.#since = Date.now();
    this.logger.warn(
      { err: error.message },
      "the state database is unavailable: inbound events are not acknowledged and turns wait until it is back",
    );
  }

  /** Work on the state succeeded: an outage ends, and is logged with how long it lasted. */
  recovered(): void {
    if (this.#since === undefined) return;
    this.logger.info({ downMs: Date.now() - this.#since }, "the state database is back: resuming what waited");
    this.#since = undefined;
  }
}
