import type { TurnInput, TurnResult } from "./types.js";

let module: Promise<typeof import("./run-turn.js")> | undefined;

/**
 * `runTurn`, with the AI SDK (`ai`, ~0.3 s and ~15 MB to load) imported on the first turn rather
 * than when the gateway starts: a gateway that has not run a turn yet has not loaded it.
 */
export async function runTurn(input: TurnInput): Promise<TurnResult> {
  module ??= import("./run-turn.js");
  return (await module).runTurn(input);
}
