import { MemoryStore } from "@chorus/channel-kit/state";
import { type ChannelPlugin, isChorusError } from "@chorus/core";
import { type RunningChannel, startChannel } from "../context.js";
import { CONTRACT_CASES, type ContractCase } from "./cases.js";
import { CONCURRENCY_CASE } from "./concurrency-case.js";
import { EscapeWatch } from "./escapes.js";
import { FAULT_CASES } from "./fault-cases.js";
import { CaseHarness, type ChannelHarness } from "./harness.js";
import { INBOUND_CASES } from "./inbound-cases.js";
import { mediaCasesFor } from "./media-cases.js";
import { SECRET_CASES } from "./secret-cases.js";
import {
  type ChannelContractOptions,
  type ContractCaseResult,
  type ContractFixture,
  DEFAULT_CONTRACT_EMOJI,
  type ReactionContractOptions,
} from "./types.js";
import { check } from "./violation.js";

/** The reaction contract cases that concern a plugin, by its declared flags. */
export function contractCasesFor(plugin: ChannelPlugin<unknown>): ContractCase[] {
  return [...CONTRACT_CASES, CONCURRENCY_CASE].filter((c) => c.applies({ caps: plugin.capabilities.reactions }));
}

/** Every case of the whole channel contract that concerns this plugin, in run order. */
export function channelCasesFor(plugin: ChannelPlugin<unknown>): ContractCase<ChannelHarness>[] {
  const facts = { caps: plugin.capabilities.reactions };
  const all: ContractCase<ChannelHarness>[] = [
    ...(CONTRACT_CASES as readonly ContractCase<ChannelHarness>[]),
    CONCURRENCY_CASE as ContractCase<ChannelHarness>,
    ...INBOUND_CASES,
    ...mediaCasesFor(plugin),
    ...FAULT_CASES,
    ...SECRET_CASES,
  ];
  return all.filter((c) => c.applies(facts));
}

/** A started fixture and plugin instance, shared by the cases of one run. */
export interface ContractSession<F extends ContractFixture = ContractFixture> {
  harness: CaseHarness<F>;
  running: RunningChannel;
  close(): Promise<void>;
}

/** Starts the fake platform and the plugin instance for a contract run. */
export async function openContractSession<T, F extends ContractFixture = ContractFixture>(
  options: Omit<ReactionContractOptions<T>, "setup"> & { setup(): Promise<F>; stepTimeoutMs?: number },
): Promise<ContractSession<F>> {
  const fixture = await options.setup();
  let running: RunningChannel;
  try {
    // A linked account's credentials are in the store before the instance starts.
    const store = fixture.linkAccount ? new MemoryStore() : undefined;
    if (store) await fixture.linkAccount?.(store);
    running = await startChannel(options.plugin, {
      config: fixture.config,
      ...(store ? { store } : {}),
      ...(options.accountId ? { accountId: options.accountId } : {}),
      ...(options.stateDir ? { stateDir: options.stateDir } : {}),
    });
  } catch (error) {
    await fixture.close?.();
    throw error;
  }
  const emoji = { ...DEFAULT_CONTRACT_EMOJI, ...options.emoji };
  const harness = new CaseHarness<F>(
    options.plugin as ChannelPlugin<unknown>,
    running,
    fixture,
    emoji,
    options.stepTimeoutMs,
  );
  return {
    harness,
    running,
    async close() {
      try {
        await running.stop();
      } finally {
        await fixture.close?.();
      }
    },
  };
}

/** The last case of a whole-channel run: nothing escaped the plugin's own error handling. */
export function escapeCase(watch: EscapeWatch): ContractCase<ChannelHarness> {
  return {
    name: "faults: no error escaped the plugin (an unhandled rejection or uncaught exception would end the gateway)",
    applies: () => true,
    async run() {
      check(watch.escaped.length === 0, `errors escaped the plugin:\n${watch.describe()}`);
    },
  };
}

async function runCases<H extends CaseHarness<ContractFixture>>(
  cases: readonly ContractCase<H>[],
  harness: H,
): Promise<ContractCaseResult[]> {
  const results: ContractCaseResult[] = [];
  for (const contractCase of cases) {
    try {
      await contractCase.run(harness);
      results.push({ name: contractCase.name, ok: true });
    } catch (error) {
      const message = isChorusError(error) ? `${error.code}: ${error.message}` : (error as Error).message;
      results.push({ name: contractCase.name, ok: false, message });
    }
  }
  return results;
}

/** Runs every applicable reaction case and reports each; never throws for a failing case. */
export async function runReactionContract<T>(options: ReactionContractOptions<T>): Promise<ContractCaseResult[]> {
  const session = await openContractSession(options);
  try {
    return await runCases(contractCasesFor(options.plugin as ChannelPlugin<unknown>), session.harness);
  } finally {
    await session.close();
  }
}

/**
 * Runs the whole channel contract (reactions, restarts, inbound, faults, secrets, escapes) and
 * reports each case; never throws for a failing case.
 */
export async function runChannelContract<T>(options: ChannelContractOptions<T>): Promise<ContractCaseResult[]> {
  const watch = new EscapeWatch().start();
  try {
    const session = await openContractSession(options);
    try {
      const cases = [...channelCasesFor(options.plugin as ChannelPlugin<unknown>), escapeCase(watch)];
      return await runCases(cases, session.harness);
    } finally {
      await session.close();
    }
  } finally {
    watch.stop();
  }
}
