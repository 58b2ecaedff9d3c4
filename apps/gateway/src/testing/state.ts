import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type StateConfig, StateStore } from "../state/index.js";

/** A state layer for a test: SQLite in a fresh temp home (or the config given), and how to remove it. */
export interface TestState {
  home: string;
  state: StateStore;
  /** Another connection to the same database (a second process: the CLI, another gateway). */
  reopen(): Promise<StateStore>;
  close(): Promise<void>;
}

export async function openTestState(config: StateConfig = { backend: "sqlite" }, home?: string): Promise<TestState> {
  const dir = home ?? (await mkdtemp(join(tmpdir(), "chorus-test-state-")));
  const opened: StateStore[] = [];
  const open = async () => {
    const state = await StateStore.open(config, { home: dir });
    opened.push(state);
    return state;
  };
  const state = await open();
  return {
    home: dir,
    state,
    reopen: open,
    async close() {
      for (const s of opened) await s.close().catch(() => undefined);
      if (!home) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Transactions run on a state layer from now on: all of them, and the durable ones. */
export interface TransactionCount {
  all: number;
  durable: number;
}

/** Counts the transactions `state` runs (a test of how many commits a path makes). */
export function countTransactions(state: StateStore): TransactionCount {
  const count: TransactionCount = { all: 0, durable: 0 };
  const tx = state.db.tx.bind(state.db);
  state.db.tx = (work, options) => {
    count.all++;
    if (options?.durable) count.durable++;
    return tx(work, options);
  };
  return count;
}
