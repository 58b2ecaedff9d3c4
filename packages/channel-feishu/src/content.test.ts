import { describe, expect, it } from "vitest";
import { plainText, replaceMentions } from "./content.js";

const names = new Map([
  ["@_user_1", "Chorus"],
  ["@_user_2", "Jerry"],
  ["@_user_10", "Tenth"],
]);

describe("text content", () => {
  it("replaces @_user_N placeholders with names, @_all with @all, longest keys first", () => {
    expect(plainText("text", '{"text":"@_user_1 hi @_user_2, @_user_10 and @_all"}', names)).toBe(
      "@Chorus hi @Jerry, @Tenth and @all",
    );
    expect(replaceMentions("no mentions", new Map())).toBe("no mentions");
  });

  it("keeps newlines, quotes and emoji as Feishu escaped them", () => {
    expect(plainText("text", '{"text":"line one\\nsays \\"hi\\" 👋"}', names)).toBe('line one\nsays "hi" 👋');
  });
});

describe("rich text (post) content", () => {
  const post = (content: unknown, title = "") => JSON.stringify({ title, content });

  it("flattens paragraphs to lines, keeps links with their address, names mentions", () => {
    const text = plainText(
      "post",
      post(
        [
          [
            { tag: "at", user_id: "@_user_1", user_name: "Chorus" },
            { tag: "text", text: " read ", style: ["bold"] },
            { tag: "a", href: "https://example.com/a", text: "this" },
          ],
          [{ tag: "img", image_key: "img_v2_x" }],
          [
            { tag: "a", href: "https://example.com/b", text: "https://example.com/b" },
            { tag: "text", text: " " },
            { tag: "emotion", emoji_type: "THUMBSUP" },
            { tag: "at", user_id: "all", user_name: "所有人" },
          ],
          [{ tag: "code_block", language: "GO", text: "func main() {}" }],
          [{ tag: "hr" }],
          [{ tag: "media", file_key: "file_v2_x", image_key: "img_v2_y" }],
        ],
        "Weekly",
      ),
      names,
    );
    expect(text).toBe(
      [
        "Weekly",
        "@Chorus read this (https://example.com/a)",
        "[image]",
        "https://example.com/b 👍@all",
        "```go\nfunc main() {}\n```",
        "---",
        "[video]",
      ].join("\n"),
    );
  });

  it("also reads the per-locale form the send API takes", () => {
    const text = plainText("post", JSON.stringify({ zh_cn: { content: [[{ tag: "md", text: "**bold**" }]] } }), names);
    expect(text).toBe("**bold**");
  });

  it("names what it cannot read", () => {
    expect(() => plainText("post", "{", names)).toThrow("unreadable message content: post content is not JSON");
    expect(() => plainText("post", '{"title":"x"}', names)).toThrow("post content has no content paragraphs");
    expect(() => plainText("text", '{"txt":"x"}', names)).toThrow("text content has no text string");
    expect(() => plainText("post", '{"content":["x"]}', names)).toThrow("a post paragraph is not a list");
  });
});

describe("other message types", () => {
  it("read as a short placeholder", () => {
    expect(plainText("image", '{"image_key":"img_v2_x"}', names)).toBe("[image]");
    expect(plainText("file", '{"file_key":"file_v2_x","file_name":"report.pdf"}', names)).toBe("[file: report.pdf]");
    expect(plainText("sticker", '{"file_key":"x"}', names)).toBe("[sticker]");
    expect(plainText("hongbao", "{}", names)).toBe("[hongbao message]");
  });
});
