import type { ChannelPlugin } from "@chorus/core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type ContractSession, contractCasesFor, openContractSession } from "./contract/run.js";
import type { ReactionContractOptions } from "./contract/types.js";

/**
 * Declares the reaction contract suite as vitest tests: one test per DESIGN §2.2 case that
 * concerns the plugin's declared flags, all against the fake platform from `options.setup`.
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

export type { ReactionContractOptions } from "./contract/types.js";
