import { isChorusError, type MessageRef, stripVariationSelectors } from "@chorus/core";
import type { ContractCase } from "./cases.js";
import type { CaseHarness } from "./harness.js";
import { check, sameReactions, show } from "./violation.js";

/** Where channels keep their bot reaction records in `ctx.store` (the kit's `BotReactionRecord`). */
const RECORD_PREFIX = "botReactions/";
/** How many times the calls are fired together: each round is a fresh chance for them to interleave. */
const ROUNDS = 4;

type Call = Record<string, unknown>;

/**
 * The calls fired at once on a message holding the bot's `first`, in round `round`: they contradict
 * each other, so their order decides what stays. Odd rounds end on the last call's own wish; even
 * rounds end where no single call, deciding from the record as it was before the burst (a lost
 * update), would leave it: either way a record written from a stale read shows.
 */
function burst(h: CaseHarness, round: number): Call[] {
  const { first, second } = h.emoji;
  if (h.caps.addOnly) return [{ emoji: second }, { emoji: first }, { emoji: second }];
  const calls: Call[] = [
    { emoji: first, remove: true },
    { emoji: second },
    { emoji: first },
    { emoji: second, remove: true },
    { emoji: second },
  ];
  return round % 2 === 1 ? calls : [...calls, { emoji: first, remove: true }];
}

/** Brings the message back to holding only the bot's `first`, one call after another. */
async function reset(h: CaseHarness, ref: MessageRef): Promise<void> {
  if (!h.caps.addOnly) await h.react(ref, { emoji: h.emoji.second, remove: true });
  await h.react(ref, { emoji: h.emoji.first });
}

/** The store keys of the bot reaction records, with their values. */
async function records(h: CaseHarness): Promise<Map<string, unknown>> {
  const entries = await h.running.store.list(RECORD_PREFIX);
  return new Map(entries.map((entry) => [entry.key, entry.value]));
}

/** What the record under `key` says the bot holds (none when it is gone). */
async function recorded(h: CaseHarness, key: string): Promise<string[]> {
  const value = await h.running.store.get(key);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

const normal = (reactions: readonly string[]) => reactions.map(stripVariationSelectors);

/**
 * DESIGN §3, concurrency: calls on one message never interleave, whoever makes them, so the bot
 * reaction record always matches the platform. Fires contradicting `react` calls on one message
 * at once, then checks that the record (where the channel keeps one) says what the platform shows,
 * and that the bot can still take back every reaction the platform shows (the record is what a
 * channel without a list API removes by).
 */
export const CONCURRENCY_CASE: ContractCase = {
  name: "concurrent calls on one message leave the bot reaction record matching the platform",
  applies: () => true,
  async run(h) {
    const forms = new Map([
      [await h.form(h.emoji.first), h.emoji.first],
      [await h.form(h.emoji.second), h.emoji.second],
    ]);
    const before = await records(h);
    const ref = await h.fresh();
    await h.react(ref, { emoji: h.emoji.first });
    const key = await recordKey(h, before);
    for (let round = 1; round <= ROUNDS; round++) {
      if (round > 1) await reset(h, ref);
      const outcomes = await h.within(
        "concurrent reaction calls",
        Promise.allSettled(burst(h, round).map((call) => h.react(ref, call))),
      );
      const failed = outcomes.flatMap((o) => (o.status === "rejected" ? [describe(o.reason)] : []));
      check(failed.length === 0, `concurrent reaction calls on one message failed: ${failed.join("; ")}`);
      const platform = await h.state(ref);
      if (key !== undefined) {
        const record = await recorded(h, key);
        check(
          sameReactions(normal(record), normal(platform)),
          `after concurrent calls (round ${round}) the bot reaction record says ${show(record)}, the platform shows ${show(platform)}: calls on one message interleaved`,
        );
      }
    }
    if (!h.caps.addOnly) await takeBackAll(h, ref, forms);
  },
};

/**
 * The key of the record a channel wrote for the message just reacted to: the one new key. Undefined
 * for a channel that keeps no record (it lists reactions on the platform instead).
 */
async function recordKey(h: CaseHarness, before: Map<string, unknown>): Promise<string | undefined> {
  const added = [...(await records(h)).keys()].filter((key) => !before.has(key));
  check(
    added.length <= 1,
    `one reaction on one fresh message wrote ${added.length} bot reaction records (${added.join(", ")})`,
  );
  return added[0];
}

/** Removes each reaction the platform shows, as an agent would: afterwards the platform shows none. */
async function takeBackAll(h: CaseHarness, ref: MessageRef, forms: Map<string, string>): Promise<void> {
  const shown = await h.state(ref);
  for (const form of shown) {
    const emoji = forms.get(form);
    check(emoji !== undefined, `the platform shows ${form}, which the suite never added`);
    await h.react(ref, { emoji, remove: true });
  }
  const after = await h.state(ref);
  check(
    after.length === 0,
    `after the concurrent calls the platform showed ${show(shown)}; removing each left ${show(after)}: the bot lost track of what it holds`,
  );
}

function describe(error: unknown): string {
  return isChorusError(error) ? `${error.code}: ${error.message}` : String(error);
}
