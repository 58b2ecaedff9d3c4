import { describe, expect, it } from "vitest";
import { splitMrkdwn, toMrkdwn } from "./mrkdwn.js";

describe("toMrkdwn", () => {
  it.each([
    ["**bold** and __bold__", "*bold* and *bold*"],
    ["*italic* and _italic_", "_italic_ and _italic_"],
    ["***both***", "*_both_*"],
    ["~~gone~~", "~gone~"],
    ["[docs](https://x.example/a?b=1&c=2)", "<https://x.example/a?b=1&c=2|docs>"],
    ['[docs](https://x.example "title")', "<https://x.example|docs>"],
    ["[https://x.example](https://x.example)", "<https://x.example>"],
    ["![chart](https://x.example/c.png)", "<https://x.example/c.png|chart>"],
    ["`a < b && c`", "`a &lt; b &amp;&amp; c`"],
    ["1 < 2 & 3 > 2", "1 &lt; 2 &amp; 3 &gt; 2"],
    ["snake_case_name and 2*3*4", "snake_case_name and 2*3*4"],
    [
      "hi <@U123ABC> and <!here>, see <#C1|general> <https://x.example|site>",
      "hi <@U123ABC> and <!here>, see <#C1|general> <https://x.example|site>",
    ],
    ["# Title with **bold**", "*Title with bold*"],
    ["- one\n- two\n  - nested", "• one\n• two\n  • nested"],
    ["* star item", "• star item"],
    ["1. first\n2. second", "1. first\n2. second"],
    ["- [ ] todo\n- [x] done", "☐ todo\n☑ done"],
    ["> quoted **text**", "> quoted *text*"],
    ["---", "──────────"],
    ["plain text", "plain text"],
  ])("%j → %j", (markdown, mrkdwn) => {
    expect(toMrkdwn(markdown)).toBe(mrkdwn);
  });

  it("keeps code blocks verbatim (escaped, without the language) and does not format inside them", () => {
    expect(toMrkdwn("Look:\n```ts\nconst a = b < c && **d**;\n```\ndone")).toBe(
      "Look:\n```\nconst a = b &lt; c &amp;&amp; **d**;\n```\ndone",
    );
    expect(toMrkdwn("```\nunclosed *x*")).toBe("```\nunclosed *x*\n```");
  });
});

describe("splitMrkdwn", () => {
  it("leaves short text whole and splits long text at paragraph boundaries within the limit", () => {
    expect(splitMrkdwn("short", 4000)).toEqual(["short"]);
    const parts = splitMrkdwn(`${"a ".repeat(1500)}\n\n${"b ".repeat(1500)}`, 4000);
    expect(parts).toHaveLength(2);
    expect(parts.every((p) => p.length <= 4000)).toBe(true);
  });

  it("closes a code block at the end of a part and reopens it in the next", () => {
    const code = `\`\`\`\n${"x = 1\n".repeat(1000)}\`\`\``;
    const parts = splitMrkdwn(code, 4000);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((p) => p.length <= 4000 && (p.match(/```/g) ?? []).length === 2)).toBe(true);
  });
});
