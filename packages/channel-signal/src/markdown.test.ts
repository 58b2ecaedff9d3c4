import { describe, expect, it } from "vitest";
import { markdownToStyles } from "./markdown.js";
import { placeMentions, resolveMentions } from "./mentions.js";

const styled = (markdown: string) => {
  const { text, styles } = markdownToStyles(markdown);
  return { text, styles: styles.map((s) => `${s.start}:${s.length}:${s.style}`) };
};

describe("markdownToStyles", () => {
  it("turns bold, italic, strikethrough and code into ranges in UTF-16 units", () => {
    expect(styled("**bold** _it_ *it* ~~gone~~ `code`")).toEqual({
      text: "bold it it gone code",
      styles: ["0:4:BOLD", "5:2:ITALIC", "8:2:ITALIC", "11:4:STRIKETHROUGH", "16:4:MONOSPACE"],
    });
    expect(styled("🚀 **go**")).toEqual({ text: "🚀 go", styles: ["3:2:BOLD"] });
    expect(styled("**bold _and italic_**")).toEqual({ text: "bold and italic", styles: ["0:15:BOLD", "5:10:ITALIC"] });
  });

  it("keeps fenced code as it is, without its language line", () => {
    expect(styled("run:\n```sh\nnpm test **now**\n```")).toEqual({
      text: "run:\nnpm test **now**",
      styles: ["5:16:MONOSPACE"],
    });
  });

  it("leaves markers alone that do not open or close a span", () => {
    expect(styled("snake_case_name, 2 * 3 * 4, **unclosed, a_b")).toEqual({
      text: "snake_case_name, 2 * 3 * 4, **unclosed, a_b",
      styles: [],
    });
  });
});

describe("mentions", () => {
  it("replaces each U+FFFC placeholder with @label, from the end so offsets hold", () => {
    const mentions = [
      { name: null, number: null, uuid: "a", start: 0, length: 1 },
      { name: null, number: "+1555", uuid: "b", start: 6, length: 1 },
    ];
    expect(resolveMentions("\uFFFC and \uFFFC!", mentions, (m) => (m.uuid === "a" ? "Ann" : "Bob"))).toBe(
      "@Ann and @Bob!",
    );
    // A mention whose offset holds no placeholder leaves the text as it is.
    expect(resolveMentions("plain", [{ ...mentions[0], start: 2 } as never], () => "X")).toBe("plain");
  });

  it("places outgoing mentions over @<id>, or in front, and moves offsets along", () => {
    const placed = placeMentions("hi @u-1 and @u-22", ["u-22", "u-1", "u-3"]);
    expect(placed.text).toBe("\uFFFC hi \uFFFC and \uFFFC");
    expect(placed.mentions).toEqual([
      { start: 0, length: 1, who: "u-3" },
      { start: 5, length: 1, who: "u-1" },
      { start: 11, length: 1, who: "u-22" },
    ]);
    expect(placed.moved(0)).toBe(2);
    expect(placed.moved(8)).toBe(7);
  });
});
