import { bench, describe } from "vitest";
import { resolveEmoji } from "../emoji/resolve.js";
import { defineVocabulary } from "../emoji/vocabulary.js";
import type { ReactionCapabilities } from "./capabilities.js";
import { normalizeReaction } from "./normalize.js";

const flags = (partial: Partial<ReactionCapabilities>): ReactionCapabilities => ({
  clearAll: false,
  singleSlot: false,
  tapbackOnly: false,
  addOnly: false,
  list: false,
  ...partial,
});

const discord = flags({ clearAll: true, list: true });
const signal = flags({ singleSlot: true });
const tapbacks = defineVocabulary([
  { name: "love", matches: ["❤️", "heart"] },
  { name: "like", matches: ["👍", "+1", "thumbsup"] },
  { name: "dislike", matches: ["👎", "-1", "thumbsdown"] },
  { name: "laugh", matches: ["😂", "🤣", "haha"] },
  { name: "emphasize", matches: ["‼️", "!!"] },
  { name: "question", matches: ["❓", "?"] },
]);
const imessage = flags({ tapbackOnly: true, singleSlot: true, clearAll: true, vocabulary: tapbacks.names });

// Warm the emoji index (the one-time emojibase load) so it is not measured; the vocabulary
// above already did, this makes it explicit and fails loudly if the data did not load.
if (resolveEmoji("thumbsup")?.bare !== "👍") throw new Error("emoji data did not load");

describe("normalizeReaction", () => {
  bench('{emoji:"thumbsup"} on Discord', () => {
    normalizeReaction({ emoji: "thumbsup" }, discord, undefined, { channel: "Discord" });
  });

  bench('{emoji:"👍🏽"} on Discord', () => {
    normalizeReaction({ emoji: "👍🏽" }, discord, undefined, { channel: "Discord" });
  });

  bench('{emoji:":heart:", remove:true} on a single-slot channel', () => {
    normalizeReaction({ emoji: ":heart:", remove: true }, signal, undefined, { channel: "Signal" });
  });

  bench('{emoji:"❤️"} tapback on iMessage', () => {
    normalizeReaction({ emoji: "❤️" }, imessage, tapbacks, { channel: "iMessage" });
  });
});

describe("resolveEmoji", () => {
  bench("shortcode thumbsup", () => {
    resolveEmoji("thumbsup");
  });

  bench("toned unicode 👍🏽", () => {
    resolveEmoji("👍🏽");
  });

  bench("toned shortcode thumbsup_tone3", () => {
    resolveEmoji("thumbsup_tone3");
  });
});
