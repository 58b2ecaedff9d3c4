import type { ChannelPlugin } from "@chorus/core";
import { type RunningChannel, startChannel } from "../context.js";
import { CONTRACT_CASES, type ContractCase } from "./cases.js";
import { CaseHarness } from "./harness.js";
import {
  type ContractCaseResult,
  type ContractFixture,
  DEFAULT_CONTRACT_EMOJI,
  type ReactionContractOptions,
} from "./types.js";

/** The contract cases that concern a plugin, by its declared flags. */
export function contractCasesFor(plugin: ChannelPlugin<unknown>): ContractCase[] {
  return CONTRACT_CASES.filter((c) => c.applies({ caps: plugin.capabilities.reactions }));
}

/** A started fixture and plugin instance, shared by the cases of one run. */
export interface ContractSession {
  harness: CaseHarness;
  close(): Promise<void>;
}

/** Starts the fake platform and the plugin instance for a contract run. */
export async function openContractSession<T>(options: ReactionContractOptions<T>): Promise<ContractSession> {
  const fixture: ContractFixture = await options.setup();
  let running: RunningChannel | undefined;
  try {
    running = await startChannel(options.plugin, {
      config: fixture.config,
      ...(options.accountId ? { accountId: options.accountId } : {}),
      ...(options.stateDir ? { stateDir: options.stateDir } : {}),
    });
  } catch (error) {
    await fixture.close?.();
    throw error;
  }
  const emoji = { ...DEFAULT_CONTRACT_EMOJI, ...options.emoji };
  const harness = new CaseHarness(options.plugin as ChannelPlugin<unknown>, running.instance, fixture, emoji);
  return {
    harness,
    async close() {
      try {
        await running?.stop();
      } finally {
        await fixture.close?.();
      }
    },
  };
}

/** Runs every applicable contract case and reports each; never throws for a failing case. */
export async function runReactionContract<T>(options: ReactionContractOptions<T>): Promise<ContractCaseResult[]> {
  const session = await openContractSession(options);
  const results: ContractCaseResult[] = [];
  try {
    for (const contractCase of contractCasesFor(options.plugin as ChannelPlugin<unknown>)) {
      try {
        await contractCase.run(session.harness);
        results.push({ name: contractCase.name, ok: true });
      } catch (error) {
        results.push({ name: contractCase.name, ok: false, message: (error as Error).message });
      }
    }
  } finally {
    await session.close();
  }
  return results;
}
