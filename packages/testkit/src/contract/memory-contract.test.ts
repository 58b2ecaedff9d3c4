import type { ReactionCapabilities } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { createMemoryChannel, createMemoryPlatform, type MemoryPlatformRules } from "../memory/index.js";
import { describeReactionContract } from "../vitest.js";
import { runReactionContract } from "./run.js";
import type { ContractFixture } from "./types.js";

const TAPBACKS = [
  { name: "love", matches: ["❤️", "heart"] },
  { name: "like", matches: ["👍", "thumbsup"] },
  { name: "laugh", matches: ["😂", "haha"] },
];
const CLOSED_SET = ["👍", "❤", "🔥", "🎉", "😂"];

type Vocabulary = "none" | "tapback" | "closed";
type Flags = Omit<ReactionCapabilities, "vocabulary" | "tapbackOnly">;

/** Every consistent combination of the declared flags, with each kind of vocabulary. */
function combinations(): { flags: Flags; vocabulary: Vocabulary }[] {
  const out: { flags: Flags; vocabulary: Vocabulary }[] = [];
  for (const addOnly of [false, true])
    for (const clearAll of addOnly ? [false] : [true, "explicit" as const, false])
      for (const singleSlot of [false, true])
        for (const list of [false, true])
          for (const vocabulary of ["none", "tapback", "closed"] as const)
            out.push({ flags: { addOnly, clearAll, singleSlot, list }, vocabulary });
  return out;
}

/** A memory platform whose real rules are `rules`, as a contract fixture. */
function fixtureFor(rules: Partial<MemoryPlatformRules>) {
  return async (): Promise<ContractFixture> => {
    const platform = createMemoryPlatform({ rules });
    await platform.start();
    platform.addConversation({ id: "c1", kind: "group", title: "Contract", members: [{ id: "ann", name: "Ann" }] });
    return {
      config: { baseUrl: platform.url, token: platform.token, pollWaitMs: 1000, retries: 0 },
      conversation: { id: "c1" },
      botReactions: (ref) => platform.botReactions(ref.messageId),
      addForeignReaction: (ref, emoji) => platform.userReacts(ref.messageId, "ann", emoji),
      foreignReactions: (ref) => platform.state.reactionsBy(ref.messageId, "ann"),
      close: () => platform.close(),
    };
  };
}

function plugin(flags: Flags, vocabulary: Vocabulary) {
  return createMemoryChannel({
    reactions: { ...flags, tapbackOnly: vocabulary === "tapback" },
    ...(vocabulary === "tapback" ? { vocabulary: TAPBACKS } : {}),
    ...(vocabulary === "closed" ? { vocabulary: CLOSED_SET } : {}),
  });
}

function platformVocabulary(vocabulary: Vocabulary): string[] | undefined {
  if (vocabulary === "tapback") return TAPBACKS.map((t) => t.name);
  return vocabulary === "closed" ? CLOSED_SET : undefined;
}

for (const { flags, vocabulary } of combinations()) {
  const name = `memory channel ${JSON.stringify(flags)} vocabulary=${vocabulary}`;
  const rules = { singleSlot: flags.singleSlot, addOnly: flags.addOnly, list: flags.list };
  const words = platformVocabulary(vocabulary);
  describeReactionContract(name, {
    plugin: plugin(flags, vocabulary),
    setup: fixtureFor(words ? { ...rules, vocabulary: words } : rules),
    emoji: vocabulary === "tapback" ? { firstAlias: "LIKE" } : {},
  });
}

describe("the contract suite catches flags that lie", () => {
  const failures = async (declared: Flags, actual: Partial<MemoryPlatformRules>) => {
    const results = await runReactionContract({
      plugin: plugin(declared, "none"),
      setup: fixtureFor(actual),
    });
    expect(results.length).toBeGreaterThan(5);
    return results.filter((r) => !r.ok);
  };

  it("a plugin that declares multiple reactions on a single-slot platform fails the replace case", async () => {
    const failed = await failures(
      { addOnly: false, clearAll: true, singleSlot: false, list: true },
      { singleSlot: true },
    );
    expect(failed.map((f) => f.name)).toContain(
      "a second emoji replaces the first on single-slot channels and joins it elsewhere",
    );
    const replace = failed.find((f) => f.name.startsWith("a second emoji"));
    expect(replace?.message).toMatch(/expected \[.+, .+\], the platform shows \[.+\]/);
  });

  it("a plugin that declares removal on an add-only platform fails every removal case", async () => {
    const failed = await failures({ addOnly: false, clearAll: true, singleSlot: false, list: true }, { addOnly: true });
    expect(failed.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        "remove: true removes the bot's reaction and nothing else",
        'emoji "" clears where clearAll is true and is refused elsewhere',
        "clearAll: true removes every reaction of the bot, never anyone else's",
      ]),
    );
  });

  it("a plugin that declares single-slot on a multi-reaction platform fails", async () => {
    const failed = await failures(
      { addOnly: false, clearAll: true, singleSlot: true, list: true },
      { singleSlot: false },
    );
    expect(failed.map((f) => f.name)).toContain(
      "a second emoji replaces the first on single-slot channels and joins it elsewhere",
    );
  });

  it("a plugin that declares listing where the platform cannot list fails the listing case", async () => {
    const failed = await failures({ addOnly: false, clearAll: true, singleSlot: false, list: true }, { list: false });
    expect(failed.map((f) => f.name)).toEqual(["listing shows the bot's reactions"]);
  });

  it("an honest plugin passes every case", async () => {
    expect(
      await failures(
        { addOnly: false, clearAll: true, singleSlot: true, list: false },
        { singleSlot: true, list: false },
      ),
    ).toEqual([]);
  });
});
