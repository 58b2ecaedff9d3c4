import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redactor } from "@chorus/channel-kit";
import { silentLogger } from "@chorus/core";
import { createMemoryChannel } from "@chorus/testkit";
import { afterEach, beforeEach } from "vitest";
import { PairingStore } from "../access/index.js";
import { accountKey, type ChannelEntry, ChannelSupervisor } from "../channels/index.js";
import type { ChannelSettings, GatewayConfig } from "../config/index.js";
import { SessionStore } from "../sessions/index.js";
import type { StateStore } from "../state/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import { MessageGate } from "./decide.js";

/** A memory channel account with `settings`, never started (the gate needs none). */
export function unstartedMemoryEntry(settings: ChannelSettings): ChannelEntry {
  const plugin = createMemoryChannel();
  return {
    plugin: plugin as never,
    capabilities: plugin.capabilities,
    accountId: "default",
    key: accountKey("memory", "default"),
    builtin: false,
    settings,
    supervisor: new ChannelSupervisor({
      plugin: plugin as never,
      accountId: "default",
      logger: silentLogger,
      context: () => {
        throw new Error("not started in this test");
      },
    }),
    redactor: new Redactor(),
  };
}

/** The gate of the running test, its state layer, and agent main's session store. */
export interface GateUnderTest {
  readonly state: StateStore;
  readonly gate: MessageGate;
  readonly store: SessionStore;
}

/**
 * A fresh gate under `config` for each test of the calling suite, on SQLite state in a new temp dir
 * named `dirPrefix…`; flushed, closed and removed after each test.
 */
export function useGate(config: GatewayConfig, dirPrefix: string): GateUnderTest {
  let dir: string | undefined;
  let test: TestState | undefined;
  let gate: MessageGate | undefined;
  let store: SessionStore | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), dirPrefix));
    test = await openTestState(undefined, dir);
    gate = new MessageGate({ config, state: test.state, pairing: await PairingStore.open(test.state) });
    store = await SessionStore.open(test.state, "main", dir);
  });
  afterEach(async () => {
    await store?.flush();
    await test?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const current = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("useGate: read outside a test");
    return value;
  };
  return {
    get state() {
      return current(test).state;
    },
    get gate() {
      return current(gate);
    },
    get store() {
      return current(store);
    },
  };
}
