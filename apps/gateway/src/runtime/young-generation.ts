import { setFlagsFromString } from "node:v8";

/**
 * Lets V8 collect the young generation when it is full, rather than in a task it posts at 80%.
 *
 * V8 hands that task to Node, which runs it at the event loop's next poll phase — where inbound
 * events are handled — and every message passes one on its way to its turn (the inbox commits a
 * tick's events together, after a `setImmediate`). So every scavenge of a busy gateway paused a
 * message before its model call: 51 of 51 over 5,000 turns of bench/dispatch.bench.ts, ~1 ms each,
 * which made the p99. Without the task a scavenge runs at the allocation that fills the young
 * generation: 16 MB collected each time instead of ~13 (42 scavenges instead of 51, the same pause
 * each), wherever the turn allocates (17–33 of them in a message's way; the benchmark's p99 0.66 ms,
 * 1.74 before).
 *
 * Set once the gateway has started, by the processes it is the whole of (`chorus start`, `chorus
 * mcp`): a V8 flag set before Node's built-in modules load makes V8 refuse their code cache (on the
 * command line it cost every start ~25–60 ms); only a built-in first loaded later compiles without it.
 */
export function collectYoungGenerationWhenFull(): void {
  setFlagsFromString("--no-minor-gc-task");
}
