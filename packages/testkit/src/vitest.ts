import type { ChannelPlugin } from "@chorus/core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { EscapeWatch } from "./contract/escapes.js";
import type { ChannelHarness } from "./contract/harness.js";
import {
  type ContractSession,
  channelCasesFor,
  contractCasesFor,
  escapeCase,
  openContractSession,
} from "./contract/run.js";
import type { ChannelContractFixture, ChannelContractOptions, ReactionContractOptions } from "./contract/types.js";

/**
 * Declares the reaction contract suite as vitest tests: one test per DESIGN §2.2 case that
 * concerns the plugin's declared flags (restarts included), all against the fake platform from
 * `options.setup`.
 */
export function describeReactionContract<T>(name: string, options: ReactionContractOptions<T>): void {
  describe(name, () => {
    let session: ContractSession | undefined;
    beforeAll(async () => {
      session = await openContractSession(options);
    });
    afterAll(async () => {
      await session?.close();
    });
    for (const contractCase of contractCasesFor(options.plugin as ChannelPlugin<unknown>)) {
      it(contractCase.name, async () => {
        if (!session) throw new Error("the contract session did not start");
        await contractCase.run(session.harness);
      });
    }
  });
}

/**
 * Declares the whole channel contract as vitest tests: the reaction cases, restarts, inbound
 * (echoes, redelivery, forged webhooks, unparseable payloads), faults at start and while running,
 * secrets, and errors escaping the plugin. The cases run in order on one instance and one fake.
 */
export function describeChannelContract<T>(name: string, options: ChannelContractOptions<T>): void {
  describe(name, () => {
    const watch = new EscapeWatch();
    let session: ContractSession<ChannelContractFixture> | undefined;
    beforeAll(async () => {
      watch.start();
      session = await openContractSession(options);
    });
    afterAll(async () => {
      watch.stop();
      await session?.close();
    });
    const cases = [...channelCasesFor(options.plugin as ChannelPlugin<unknown>), escapeCase(watch)];
    for (const contractCase of cases) {
      it(contractCase.name, { timeout: (options.stepTimeoutMs ?? 20_000) * 4 }, async () => {
        if (!session) throw new Error("the contract session did not start");
        await contractCase.run(session.harness as ChannelHarness);
      });
    }
  });
}

export type { ChannelContractOptions, ReactionContractOptions } from "./contract/types.js";
