import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { emojiDataSet } from "./data.js";
import { EMOJIBASE_VERSION, SHORTCODE_SETS } from "./emoji-data.generated.js";

// emojibase-data is only a dev dependency: core ships the generated module, these tests hold it
// to the data set it was built from.
const require = createRequire(import.meta.url);

describe("the generated emoji data", () => {
  it("is built from the installed emojibase-data version", () => {
    expect(EMOJIBASE_VERSION).toBe(require("emojibase-data/package.json").version);
  });

  it("has every emoji of emojibase's English compact data, with every field core reads, skins included", () => {
    const emojibase = require("emojibase-data/en/compact.json");
    expect(emojiDataSet().emojis).toEqual(emojibase);
    expect(emojiDataSet().emojis.length).toBeGreaterThan(1_900);
  });

  it.each(SHORTCODE_SETS.map((set, index) => [set, index] as const))(
    "has emojibase's %s shortcodes for every emoji",
    (set, index) => {
      expect(emojiDataSet().shortcodes[index]).toEqual(require(`emojibase-data/en/shortcodes/${set}.json`));
    },
  );
});
