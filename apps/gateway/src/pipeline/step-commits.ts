import { SETTLED } from "../support/index.js";

/**
 * The commits a session's step started without waiting for each: a run of group messages that
 * only become context (their inbox rows marked `buffered`) is decided message by message and
 * committed together, in order, instead of one commit round trip each. Whatever reads what they
 * write (a triggered message's context, a command, a turn, a reply's commit) waits for `settled`
 * first, and the step waits for it before it lets the session go.
 */
export class StepCommits {
  #pending: Promise<unknown>[] = [];

  /** Adds a commit already started (its failure is reported by `settled`). */
  add(commit: Promise<unknown>): void {
    commit.catch(() => undefined);
    this.#pending.push(commit);
  }

  /** Resolves once every commit added so far is done; rejects with the first that failed. */
  settled(): Promise<void> {
    const pending = this.#pending;
    // Most steps add none: no promise of its own then (each also pays Node 20's promise hooks).
    if (pending.length === 0) return SETTLED;
    this.#pending = [];
    return Promise.all(pending).then(() => undefined);
  }
}
