/**
 * Persists something that changes often: every `changed()` in one tick leads to one `write()`,
 * writes never overlap, and `flush()` resolves once every change made before it is written.
 */
export class CoalescedWriter {
  private changes = 0;
  private persisted = 0;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Immediate | undefined;

  /**
   * @param write writes the current state (it reads the state when it runs, so it covers every change so far)
   * @param onError receives failures of background writes; `flush()` retries and throws them
   */
  constructor(
    private readonly write: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** True while some change is not on disk yet. */
  get dirty(): boolean {
    return this.persisted < this.changes;
  }

  /** Records a change; the write happens after the current tick. */
  changed(): void {
    this.changes++;
    this.schedule();
  }

  /** Resolves when every change recorded so far is written; rejects when that write fails. */
  async flush(): Promise<void> {
    const target = this.changes;
    if (this.timer !== undefined) {
      clearImmediate(this.timer);
      this.timer = undefined;
    }
    while (this.persisted < target) await this.writeAll();
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setImmediate(() => {
      this.timer = undefined;
      this.writeAll().then(
        () => {
          if (this.dirty) this.schedule();
        },
        (error: unknown) => this.onError(error),
      );
    });
  }

  /** Joins the running write loop or starts one; never two at once. */
  private writeAll(): Promise<void> {
    this.running ??= this.loop().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async loop(): Promise<void> {
    while (this.persisted < this.changes) {
      const target = this.changes;
      await this.write();
      this.persisted = Math.max(this.persisted, target);
    }
  }
}
