import { describe, expect, it } from "vitest";
import { mentionedIn, mentionedInBlocks, resolveMarkup, unescapeSlack } from "./markup.js";

const names = {
  user: (id: string) => ({ U1: "Ann", U2: "Bob" })[id],
  channel: (id: string) => ({ C1: "general" })[id],
};

describe("Slack markup", () => {
  it.each([
    ["<@U1> and <@U2|bob> and <@U9>", "@Ann and @Bob and @U9"],
    ["<@U9|legacy name>", "@legacy name"],
    ["<#C1> and <#C2|random> and <#C3>", "#general and #random and #C3"],
    ["<!here> <!channel> <!everyone> <!here|here>", "@here @channel @everyone @here"],
    ["<!subteam^S0614TZR7|@design> <!subteam^S0614TZR8>", "@design @S0614TZR8"],
    ["<!date^1392734382^{date_num}|2014-02-18 6:39 AM>", "2014-02-18 6:39 AM"],
    [
      "<https://x.example/a?b=1&amp;c=2|the link> <https://y.example> <https://z.example|https://z.example>",
      "the link (https://x.example/a?b=1&c=2) https://y.example https://z.example",
    ],
    ["<mailto:ann@x.example|ann@x.example>", "ann@x.example"],
    ["a &lt;b&gt; &amp;amp; c", "a <b> &amp; c"],
  ])("%j → %j", (text, plain) => {
    expect(resolveMarkup(text, names)).toBe(plain);
  });

  it("finds user mentions in text (not broadcasts) and in rich-text blocks", () => {
    expect(mentionedIn("<@U1> <!here> <@U2|bob> <@U1>")).toEqual(["U1", "U2"]);
    const blocks = [
      {
        type: "rich_text",
        elements: [
          {
            type: "rich_text_quote",
            elements: [
              { type: "user", user_id: "U3" },
              { type: "broadcast", range: "channel" },
            ],
          },
        ],
      },
      { type: "section", text: { type: "mrkdwn", text: "<@U4>" } },
    ];
    expect(mentionedInBlocks(blocks)).toEqual(["U3"]);
    expect(mentionedInBlocks(undefined)).toEqual([]);
    expect(unescapeSlack("&lt;&gt;&amp;")).toBe("<>&");
  });
});
