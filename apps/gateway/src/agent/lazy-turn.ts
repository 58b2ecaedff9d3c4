import type { TurnInput, TurnResult } from "./types.js";

let module: Promise<typeof import("./run-turn.js")> | undefined;

/**
 * `runTurn`, with the turn loop and the model specification's errors (`@ai-sdk/provider`) imported
 * on the first turn rather than when the gateway starts: a gateway that has not run a turn yet has
 * not loaded them, nor any provider.
 */
export async function runTurn(input: TurnInput): Promise<TurnResult> {
  module ??= import("./run-turn.js");
  return (await module).runTurn(input);
}
