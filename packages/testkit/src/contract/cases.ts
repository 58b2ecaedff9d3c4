import { channelPluginProblems, stripVariationSelectors } from "@chorus/core";
import type { CaseHarness } from "./harness.js";
import { check, expectRefusal, sameReactions, show } from "./violation.js";

export interface ContractCase<H extends CaseHarness = CaseHarness> {
  name: string;
  /** Whether the case concerns a channel with these flags. */
  applies(h: Pick<H, "caps">): boolean;
  run(h: H): Promise<void>;
}

const always = () => true;

async function expectState(h: CaseHarness, ref: Parameters<CaseHarness["state"]>[0], expected: string[], why: string) {
  const actual = await h.state(ref);
  check(sameReactions(actual, expected), `${why}: expected ${show(expected)}, the platform shows ${show(actual)}`);
}

/** Every DESIGN §2.2 case, checked against the platform state the fake reports. */
export const CONTRACT_CASES: readonly ContractCase[] = [
  {
    name: "declared reaction flags are consistent",
    applies: always,
    async run(h) {
      const problems = channelPluginProblems(h.plugin);
      check(problems.length === 0, problems.join("; "));
    },
  },
  {
    name: "add puts one reaction on the message",
    applies: always,
    async run(h) {
      const ref = await h.fresh();
      const result = await h.react(ref, { emoji: h.emoji.first });
      check(result.ok && result.op === "add", `add returned ${JSON.stringify(result)}`);
      await expectState(h, ref, [await h.form(h.emoji.first)], "after one add");
    },
  },
  {
    name: "adding the same reaction twice (in any spelling) is idempotent",
    applies: always,
    async run(h) {
      const { ref, expected } = await h.withReactions(false);
      await h.react(ref, { emoji: h.emoji.first });
      if (h.emoji.firstAlias) await h.react(ref, { emoji: h.emoji.firstAlias });
      await expectState(h, ref, expected, "after adding the same emoji again");
    },
  },
  {
    name: "a second emoji replaces the first on single-slot channels and joins it elsewhere",
    applies: always,
    async run(h) {
      const first = await h.form(h.emoji.first);
      const second = await h.form(h.emoji.second);
      check(first !== second, `the suite's two emoji must be different reactions, both became ${first}`);
      const ref = await h.fresh();
      await h.react(ref, { emoji: h.emoji.first });
      await h.react(ref, { emoji: h.emoji.second });
      const expected = h.caps.singleSlot ? [second] : [first, second];
      await expectState(h, ref, expected, `after adding two emoji (singleSlot: ${h.caps.singleSlot})`);
    },
  },
  {
    name: "remove: true removes the bot's reaction and nothing else",
    applies: (h) => !h.caps.addOnly,
    async run(h) {
      const { ref, expected } = await h.withReactions(true);
      const result = await h.react(ref, { emoji: h.emoji.first, remove: true });
      check(result.ok, `remove returned ${JSON.stringify(result)}`);
      await expectState(h, ref, expected.slice(1), "after removing the first emoji");
    },
  },
  {
    name: "removing a reaction that is not there succeeds and removes nothing else",
    applies: (h) => !h.caps.addOnly,
    async run(h) {
      const empty = await h.fresh();
      await h.react(empty, { emoji: h.emoji.first, remove: true });
      await expectState(h, empty, [], "after removing from a message without reactions");
      if (h.caps.singleSlot && !h.caps.tapbackOnly) return; // rule 7: remove empties the slot
      const ref = await h.fresh();
      await h.react(ref, { emoji: h.emoji.second });
      await h.react(ref, { emoji: h.emoji.first, remove: true });
      await expectState(h, ref, [await h.form(h.emoji.second)], "removing an absent emoji must keep the other one");
    },
  },
  {
    name: 'emoji "" clears where clearAll is true and is refused elsewhere',
    applies: always,
    async run(h) {
      const { ref, expected } = await h.withReactions(true);
      if (h.caps.addOnly) {
        await expectRefusal(() => h.react(ref, { emoji: "" }), "E_UNSUPPORTED", 'emoji "" on an add-only channel');
        return expectState(h, ref, expected, 'a refused emoji "" must change nothing');
      }
      if (h.caps.clearAll === true) {
        const result = await h.react(ref, { emoji: "" });
        check(result.op === "clear", `emoji "" should clear, returned ${JSON.stringify(result)}`);
        return expectState(h, ref, [], 'after emoji ""');
      }
      await expectRefusal(
        () => h.react(ref, { emoji: "" }),
        "E_EMOJI_REQUIRED",
        `emoji "" with clearAll ${h.caps.clearAll}`,
      );
      await expectState(h, ref, expected, 'a refused emoji "" must change nothing');
    },
  },
  {
    name: "clearAll: true removes every reaction of the bot, never anyone else's",
    applies: always,
    async run(h) {
      const { ref, expected } = await h.withReactions(true);
      const foreign = h.fixture.addForeignReaction && h.fixture.foreignReactions;
      if (foreign) await h.fixture.addForeignReaction?.(ref, h.emoji.first);
      if (!h.caps.clearAll || h.caps.addOnly) {
        await expectRefusal(
          () => h.react(ref, { clearAll: true }),
          "E_UNSUPPORTED",
          "clearAll where it is not declared",
        );
        return expectState(h, ref, expected, "a refused clearAll must change nothing");
      }
      const result = await h.react(ref, { clearAll: true });
      check(result.op === "clear", `clearAll returned ${JSON.stringify(result)}`);
      await expectState(h, ref, [], "after clearAll");
      if (foreign) {
        const others = [...((await h.fixture.foreignReactions?.(ref)) ?? [])];
        check(others.length === 1, `clearAll must keep other people's reactions, they are now ${show(others)}`);
      }
    },
  },
  {
    name: "tapback kinds: emoji map onto kinds, unmapped ones are refused listing the kinds",
    applies: (h) => h.caps.tapbackOnly,
    async run(h) {
      const kinds = h.plugin.vocabulary?.names ?? h.caps.vocabulary ?? [];
      const kind = h.plugin.vocabulary?.lookup(h.emoji.first) ?? h.emoji.first;
      const ref = await h.fresh();
      await h.react(ref, { emoji: kind });
      await expectState(
        h,
        ref,
        [await h.form(h.emoji.first)],
        `the kind name "${kind}" and ${h.emoji.first} must be one reaction`,
      );
      const error = await expectRefusal(
        () => h.react(ref, { emoji: h.emoji.unsupported }),
        "E_UNSUPPORTED_EMOJI",
        `adding ${h.emoji.unsupported}`,
      );
      const listed = kinds.every((k) => `${error.message} ${error.hint ?? ""}`.includes(k));
      check(
        listed,
        `the refusal must list the kinds (${kinds.join(", ")}), it says: ${error.message} ${error.hint ?? ""}`,
      );
      await expectState(h, ref, [await h.form(h.emoji.first)], "a refused tapback must change nothing");
      if (h.caps.addOnly) return;
      await h.react(ref, { emoji: h.emoji.unsupported, remove: true });
      await expectState(h, ref, [], "remove without a recognised kind removes all kinds");
    },
  },
  {
    name: "add-only: every kind of removal is refused with E_UNSUPPORTED and changes nothing",
    applies: (h) => h.caps.addOnly,
    async run(h) {
      const { ref, expected } = await h.withReactions(false);
      for (const call of [{ emoji: h.emoji.first, remove: true }, { emoji: "" }, { clearAll: true }]) {
        const error = await expectRefusal(() => h.react(ref, call), "E_UNSUPPORTED", JSON.stringify(call));
        check(/remov/i.test(error.message), `the refusal must say removal is impossible, it says: ${error.message}`);
      }
      await expectState(h, ref, expected, "refused removals must change nothing");
    },
  },
  {
    name: "an emoji outside the vocabulary is refused with the closest allowed ones",
    applies: (h) => !h.caps.tapbackOnly && (h.caps.vocabulary?.length ?? 0) > 0,
    async run(h) {
      const ref = await h.fresh();
      const error = await expectRefusal(
        () => h.react(ref, { emoji: h.emoji.unsupported }),
        "E_UNSUPPORTED_EMOJI",
        `adding ${h.emoji.unsupported}`,
      );
      const alternatives = (error.details?.alternatives ?? []) as string[];
      const vocabulary = h.caps.vocabulary ?? [];
      check(alternatives.length > 0, "the refusal must name the closest allowed alternatives");
      check(
        alternatives.every((a) => vocabulary.includes(a)),
        `alternatives must come from the vocabulary, got ${alternatives.join(", ")}`,
      );
      await expectState(h, ref, [], "a refused emoji must change nothing");
    },
  },
  {
    name: "restart: adding the bot's reaction again after a restart is idempotent",
    applies: always,
    async run(h) {
      const expected = [await h.form(h.emoji.first)];
      const ref = await h.fresh();
      await h.react(ref, { emoji: h.emoji.first });
      await h.restart();
      await h.react(ref, { emoji: h.emoji.first });
      await expectState(h, ref, expected, "after adding the same emoji again after a restart");
    },
  },
  {
    name: "restart: removing the bot's reaction after a restart still removes it",
    applies: (h) => !h.caps.addOnly,
    async run(h) {
      const ref = await h.fresh();
      await h.react(ref, { emoji: h.emoji.first });
      await h.restart();
      await h.react(ref, { emoji: h.emoji.first, remove: true });
      await expectState(h, ref, [], "after removing the bot's reaction after a restart");
    },
  },
  {
    name: "restart: clearAll after a restart removes every reaction of the bot",
    applies: (h) => Boolean(h.caps.clearAll) && !h.caps.addOnly,
    async run(h) {
      const { ref } = await h.withReactions(true);
      await h.restart();
      const result = await h.react(ref, { clearAll: true });
      check(result.op === "clear", `clearAll after a restart returned ${JSON.stringify(result)}`);
      await expectState(h, ref, [], "after clearAll after a restart");
    },
  },
  {
    name: "listing shows the bot's reactions",
    applies: (h) => h.caps.list,
    async run(h) {
      check(
        typeof h.instance.listReactions === "function",
        "capabilities.reactions.list is true but listReactions is missing",
      );
      const { ref } = await h.withReactions(false);
      const form = stripVariationSelectors(await h.form(h.emoji.first));
      const listed = (await h.instance.listReactions?.(ref)) ?? [];
      const mine = listed.find((r) => stripVariationSelectors(r.emoji) === form);
      check(
        mine?.me === true && mine.count >= 1,
        `listReactions should show ${form} by the bot, got ${JSON.stringify(listed)}`,
      );
    },
  },
];
