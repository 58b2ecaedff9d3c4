import { describe, expect, it } from "vitest";
import { mintRef } from "./ref-scope.js";

const scope = { channel: "acme", accountId: "work", botId: "u_bot" };

describe("mintRef", () => {
  it("takes channel and account from the scope and keeps only the parts given", () => {
    expect(mintRef(scope, { conversationId: "c1", messageId: "m1" })).toEqual({
      channel: "acme",
      accountId: "work",
      conversationId: "c1",
      messageId: "m1",
    });
  });

  it("derives fromBot from the author, unless fromBot is given", () => {
    expect(mintRef(scope, { conversationId: "c1", messageId: "m1", authorId: "u_bot" }).fromBot).toBe(true);
    expect(mintRef(scope, { conversationId: "c1", messageId: "m1", authorId: "u_ann" }).fromBot).toBe(false);
    expect(mintRef(scope, { conversationId: "c1", messageId: "m1", authorId: "u_ann", fromBot: true }).fromBot).toBe(
      true,
    );
  });

  it("carries the thread and the plugin's data", () => {
    const ref = mintRef(scope, { conversationId: "c1", messageId: "m1", threadId: "t1", data: { author: "u_ann" } });
    expect(ref).toMatchObject({ threadId: "t1", data: { author: "u_ann" } });
  });
});
