import { describe, expect, it } from "vitest";
import { defineVocabulary } from "../emoji/vocabulary.js";
import { ChorusError, type ErrorCode } from "../errors.js";
import type { ReactionCapabilities } from "./capabilities.js";
import type { ReactionIntent } from "./intent.js";
import { normalizeReaction } from "./normalize.js";

const flags = (partial: Partial<ReactionCapabilities>): ReactionCapabilities => ({
  clearAll: false,
  singleSlot: false,
  tapbackOnly: false,
  addOnly: false,
  list: false,
  ...partial,
});

const tapbacks = defineVocabulary([
  { name: "love", matches: ["❤️", "heart"] },
  { name: "like", matches: ["👍", "+1", "thumbsup"] },
  { name: "dislike", matches: ["👎", "-1", "thumbsdown"] },
  { name: "laugh", matches: ["😂", "🤣", "haha"] },
  { name: "emphasize", matches: ["‼️", "!!"] },
  { name: "question", matches: ["❓", "?"] },
]);

/** DESIGN §2.2, "Per channel": the flags each channel declares. */
const CHANNELS = {
  Discord: flags({ clearAll: true, list: true }),
  Slack: flags({ clearAll: true, list: true }),
  "Nextcloud Talk": flags({ addOnly: true }),
  Telegram: flags({ clearAll: true, singleSlot: true, vocabulary: ["👍", "❤", "🔥"] }),
  WhatsApp: flags({ clearAll: true, singleSlot: true }),
  "Zalo Personal": flags({}),
  "Feishu/Lark": flags({ clearAll: "explicit", list: true, vocabulary: ["THUMBSUP", "HEART"] }),
  Signal: flags({ singleSlot: true }),
  iMessage: flags({ tapbackOnly: true, singleSlot: true, clearAll: true, vocabulary: tapbacks.names }),
} satisfies Record<string, ReactionCapabilities>;

type Channel = keyof typeof CHANNELS;
type Outcome = ReactionIntent | { error: ErrorCode; message: RegExp };

function run(channel: Channel, call: unknown): ReactionIntent {
  const vocabulary = channel === "iMessage" ? tapbacks : undefined;
  return normalizeReaction(call, CHANNELS[channel], vocabulary, { channel });
}

function expectOutcome(channel: Channel, call: unknown, outcome: Outcome): void {
  if ("error" in outcome) {
    let thrown: unknown;
    try {
      run(channel, call);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ChorusError);
    expect((thrown as ChorusError).code).toBe(outcome.error);
    expect((thrown as ChorusError).message).toMatch(outcome.message);
    return;
  }
  expect(run(channel, call)).toMatchObject(outcome);
}

const EMOJI_REQUIRED = { error: "E_EMOJI_REQUIRED", message: /emoji is required/ } as const;
const REMOVE_NEEDS_EMOJI = { error: "E_EMOJI_REQUIRED", message: /^emoji is required with remove: true$/ } as const;
const NOT_REMOVABLE = {
  error: "E_UNSUPPORTED",
  message: /^Reactions cannot be removed on Nextcloud Talk: removal is not supported\.$/,
} as const;

/**
 * The §2.2 table, one row per channel: what `emoji: ""`, `remove: true` (with and without an
 * emoji), `clearAll: true`, a plain add, and a call without emoji do.
 */
const TABLE: Record<
  Channel,
  { empty: Outcome; remove: Outcome; removeEmpty: Outcome; clearAll: Outcome; add: Outcome; missing: Outcome }
> = {
  Discord: {
    empty: { op: "clear" },
    remove: { op: "remove", emoji: "👍" },
    removeEmpty: REMOVE_NEEDS_EMOJI,
    clearAll: { op: "clear" },
    add: { op: "add", emoji: "👍" },
    missing: EMOJI_REQUIRED,
  },
  Slack: {
    empty: { op: "clear" },
    remove: { op: "remove", emoji: "👍" },
    removeEmpty: REMOVE_NEEDS_EMOJI,
    clearAll: { op: "clear" },
    add: { op: "add", emoji: "👍" },
    missing: EMOJI_REQUIRED,
  },
  "Nextcloud Talk": {
    empty: NOT_REMOVABLE,
    remove: NOT_REMOVABLE,
    removeEmpty: NOT_REMOVABLE,
    clearAll: NOT_REMOVABLE,
    add: { op: "add", emoji: "👍" },
    missing: EMOJI_REQUIRED,
  },
  Telegram: {
    empty: { op: "clear" },
    remove: { op: "clear", emoji: "👍" },
    removeEmpty: REMOVE_NEEDS_EMOJI,
    clearAll: { op: "clear" },
    add: { op: "add", emoji: "👍" },
    missing: EMOJI_REQUIRED,
  },
  WhatsApp: {
    empty: { op: "clear" },
    remove: { op: "clear", emoji: "👍" },
    removeEmpty: REMOVE_NEEDS_EMOJI,
    clearAll: { op: "clear" },
    add: { op: "add", emoji: "👍" },
    missing: EMOJI_REQUIRED,
  },
  "Zalo Personal": {
    empty: { error: "E_EMOJI_REQUIRED", message: /^emoji is required; an empty emoji is not a reaction$/ },
    remove: { op: "remove", emoji: "👍" },
    removeEmpty: REMOVE_NEEDS_EMOJI,
    clearAll: { error: "E_UNSUPPORTED", message: /^clearAll is not supported on Zalo Personal\.$/ },
    add: { op: "add", emoji: "👍" },
    missing: EMOJI_REQUIRED,
  },
  "Feishu/Lark": {
    empty: { error: "E_EMOJI_REQUIRED", message: /an empty emoji does not clear reactions here/ },
    remove: { op: "remove", emoji: "👍" },
    removeEmpty: REMOVE_NEEDS_EMOJI,
    clearAll: { op: "clear" },
    add: { op: "add", emoji: "👍" },
    missing: EMOJI_REQUIRED,
  },
  Signal: {
    empty: { error: "E_EMOJI_REQUIRED", message: /^emoji is required; an empty emoji is not a reaction$/ },
    remove: { op: "clear", emoji: "👍" },
    removeEmpty: REMOVE_NEEDS_EMOJI,
    clearAll: { error: "E_UNSUPPORTED", message: /^clearAll is not supported on Signal\.$/ },
    add: { op: "add", emoji: "👍" },
    missing: EMOJI_REQUIRED,
  },
  iMessage: {
    empty: { op: "clear" },
    remove: { op: "remove", emoji: "👍", kind: "like" },
    removeEmpty: REMOVE_NEEDS_EMOJI,
    clearAll: { op: "clear" },
    add: { op: "add", emoji: "👍", kind: "like" },
    missing: EMOJI_REQUIRED,
  },
};

describe("normalizeReaction: the DESIGN §2.2 table", () => {
  for (const [channel, row] of Object.entries(TABLE) as [Channel, (typeof TABLE)[Channel]][]) {
    describe(channel, () => {
      it('emoji: "" ', () => expectOutcome(channel, { emoji: "" }, row.empty));
      it("remove: true with an emoji", () => expectOutcome(channel, { emoji: "👍", remove: true }, row.remove));
      it("remove: true with an empty emoji", () =>
        expectOutcome(channel, { emoji: "", remove: true }, row.removeEmpty));
      it("clearAll: true", () => expectOutcome(channel, { clearAll: true }, row.clearAll));
      it("add", () => expectOutcome(channel, { emoji: "👍" }, row.add));
      it("no emoji at all", () => expectOutcome(channel, {}, row.missing));
    });
  }
});

describe("normalizeReaction: rules in order", () => {
  it("rule 1 comes before add-only: a call with nothing is E_EMOJI_REQUIRED everywhere", () => {
    for (const channel of Object.keys(CHANNELS) as Channel[]) expectOutcome(channel, { remove: true }, EMOJI_REQUIRED);
  });

  it("rule 2: add-only refuses clearAll even with an emoji, and says removal is impossible", () => {
    expectOutcome("Nextcloud Talk", { emoji: "👍", clearAll: true }, NOT_REMOVABLE);
    expectOutcome("Nextcloud Talk", { emoji: "   " }, NOT_REMOVABLE);
  });

  it("rule 2 without a channel label still names the channel generically", () => {
    expect(() => normalizeReaction({ emoji: "" }, CHANNELS["Nextcloud Talk"])).toThrow(
      "Reactions cannot be removed on this channel: removal is not supported.",
    );
  });

  it("rule 4: clearAll wins over remove and keeps the given emoji", () => {
    expect(run("Discord", { emoji: "👍", remove: true, clearAll: true })).toMatchObject({ op: "clear", emoji: "👍" });
  });

  it("rule 5: explicit clearAll tells the caller to pass clearAll: true", () => {
    let hint: string | undefined;
    try {
      run("Feishu/Lark", { emoji: "" });
    } catch (error) {
      hint = (error as ChorusError).hint;
    }
    expect(hint).toBe("Pass clearAll: true to remove all your reactions.");
  });

  it("rule 5: whitespace-only emoji counts as empty", () => {
    expect(run("Discord", { emoji: "  " })).toEqual({ op: "clear" });
  });

  it("rule 6: tapback kinds map from emoji, shortcodes and names, case- and selector-insensitive", () => {
    expect(run("iMessage", { emoji: "❤" })).toMatchObject({ op: "add", kind: "love" });
    expect(run("iMessage", { emoji: "❤️" })).toMatchObject({ op: "add", kind: "love" });
    expect(run("iMessage", { emoji: "LOVE" })).toMatchObject({ op: "add", kind: "love" });
    expect(run("iMessage", { emoji: ":thumbsdown:" })).toMatchObject({ op: "add", kind: "dislike" });
    expect(run("iMessage", { emoji: "🤣" })).toMatchObject({ op: "add", kind: "laugh" });
    expect(run("iMessage", { emoji: "!!" })).toMatchObject({ op: "add", kind: "emphasize" });
    expect(run("iMessage", { emoji: "👍🏾" })).toMatchObject({ op: "add", kind: "like" });
  });

  it("rule 6: an unmapped add is E_UNSUPPORTED_EMOJI listing the kinds", () => {
    expectOutcome(
      "iMessage",
      { emoji: "🦜" },
      {
        error: "E_UNSUPPORTED_EMOJI",
        message:
          /^"🦜" is not a reaction kind on iMessage; emoji must be one of: love, like, dislike, laugh, emphasize, question\.$/,
      },
    );
  });

  it("rule 6: remove with an unmapped emoji clears all kinds", () => {
    expect(run("iMessage", { emoji: "🦜", remove: true })).toMatchObject({ op: "clear", emoji: "🦜" });
  });

  it("rule 6 without a vocabulary object falls back to the declared kind names", () => {
    expect(normalizeReaction({ emoji: "Like" }, CHANNELS.iMessage)).toMatchObject({ op: "add", kind: "like" });
  });

  it("rule 7: single slot adds replace; any remove empties the slot", () => {
    expect(run("Signal", { emoji: "🔥" })).toMatchObject({ op: "add", emoji: "🔥" });
    expect(run("Signal", { emoji: "🔥", remove: true })).toMatchObject({ op: "clear", emoji: "🔥" });
  });

  it("the intent carries the resolved emoji for standard emoji and shortcodes", () => {
    const intent = run("Slack", { emoji: ":+1:" });
    expect(intent.emoji).toBe(":+1:");
    expect(intent.resolved?.bare).toBe("👍");
    expect(run("Discord", { emoji: "party_parrot:123" }).resolved).toBeUndefined();
  });
});

describe("normalizeReaction: malformed calls", () => {
  const cases: [string, unknown, RegExp][] = [
    ["null", null, /react call must be an object, got null/],
    ["a string", "👍", /react call must be an object, got the string "👍"/],
    ["an array", ["👍"], /got an array/],
    ["a numeric emoji", { emoji: 5 }, /^emoji must be a string, got number 5$/],
    ["a string remove", { emoji: "👍", remove: "yes" }, /^remove must be a boolean, got the string "yes"$/],
    ["an object clearAll", { clearAll: {} }, /^clearAll must be a boolean, got an object$/],
    ["a huge emoji", { emoji: "x".repeat(500) }, /^emoji is too long \(500 characters, at most 128\)$/],
  ];
  for (const [name, call, message] of cases) {
    it(`${name} → E_INVALID_INPUT`, () => {
      expect(() => run("Discord", call)).toThrow(message);
      try {
        run("Discord", call);
      } catch (error) {
        expect((error as ChorusError).code).toBe("E_INVALID_INPUT");
      }
    });
  }

  it("null emoji counts as missing", () => {
    expectOutcome("Discord", { emoji: null }, EMOJI_REQUIRED);
    expect(run("Discord", { emoji: null, clearAll: true })).toEqual({ op: "clear" });
  });
});
