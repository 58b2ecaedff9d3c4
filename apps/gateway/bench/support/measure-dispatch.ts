import { measureCost, type ProcessCost } from "./cost.js";
import { createDispatchHarness, type DispatchSample } from "./dispatch-harness.js";

/** What `measure-dispatch` answers (see dispatch.bench.ts, which runs it in a plain node process). */
export interface DispatchMeasurement {
  samples: DispatchSample[];
  cost: ProcessCost;
  /** The channel's calls, to check every turn replied and reacted. */
  counts: { sent: number; reactions: number };
  /** Profile: `dispatchUs` of the same run with the inbox commit's WAL sync left out. */
  unsyncedUs: number[];
}

/**
 * `node measure-dispatch.js <conversations> <messages> <directEvery>`: one message per conversation
 * first (creates every session), then `messages` measured, round-robin over the conversations, so
 * no message waits behind another's turn; then the same without the inbox commit's WAL sync.
 */
async function main(): Promise<void> {
  const [conversations, messages, directEvery] = process.argv.slice(2).map(Number);
  if (!conversations || !messages || !directEvery) {
    throw new Error("usage: measure-dispatch <conversations> <messages> <directEvery>");
  }
  const harness = await createDispatchHarness({ directEvery });
  for (let i = 0; i < conversations; i++) await harness.message(i);
  const { value: samples, cost } = await measureCost(async () => {
    const list: DispatchSample[] = [];
    for (let i = 0; i < messages; i++) list.push(await harness.message(i % conversations));
    return list;
  });
  const counts = { ...harness.channel.counts };
  await harness.close();

  const profile = await createDispatchHarness({ directEvery, inboxWithoutFsync: true });
  for (let i = 0; i < conversations; i++) await profile.message(i);
  const unsyncedUs: number[] = [];
  for (let i = 0; i < messages; i++) unsyncedUs.push((await profile.message(i % conversations)).dispatchUs);
  await profile.close();

  const answer: DispatchMeasurement = { samples, cost, counts, unsyncedUs };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}

await main();
