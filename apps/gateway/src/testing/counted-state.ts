import { afterEach, beforeEach } from "vitest";
import type { StateStore } from "../state/index.js";
import { countTransactions, openTestState, type TestState, type TransactionCount } from "./state.js";

/** The state of the running test, and the transactions it ran so far. */
export interface CountedTestState {
  readonly state: StateStore;
  readonly counted: TransactionCount;
}

/**
 * A fresh SQLite state layer for each test of the calling suite, its transactions counted from the
 * start (a test of how many commits a path makes); removed after each test.
 */
export function useCountedTestState(): CountedTestState {
  let opened: TestState | undefined;
  let counted: TransactionCount | undefined;
  beforeEach(async () => {
    opened = await openTestState();
    counted = countTransactions(opened.state);
  });
  afterEach(async () => {
    await opened?.close();
  });
  const current = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("useCountedTestState: read outside a test");
    return value;
  };
  return {
    get state() {
      return current(opened).state;
    },
    get counted() {
      return current(counted);
    },
  };
}
