import type { MessageRef } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { mergeRefs } from "./notifier.js";

const ref = (extra: Partial<MessageRef> = {}): MessageRef => ({
  channel: "telegram",
  accountId: "default",
  conversationId: "c1",
  messageId: "m1",
  ...extra,
});

describe("mergeRefs", () => {
  it("is the incoming ref when nothing is known", () => {
    expect(mergeRefs(undefined, ref({ fromBot: false }))).toEqual(ref({ fromBot: false }));
  });

  it("keeps fromBot true once the gateway knew the bot sent it, whatever a later event says", () => {
    expect(mergeRefs(ref({ fromBot: true }), ref({ fromBot: false })).fromBot).toBe(true);
    expect(mergeRefs(ref({ fromBot: true }), ref()).fromBot).toBe(true);
    expect(mergeRefs(ref(), ref({ fromBot: false })).fromBot).toBe(false);
  });

  it("completes the known ref (thread, data) without dropping what only it had", () => {
    const known = ref({ threadId: "t1", data: { chat: "c1", participant: "p1" } });
    const incoming = ref({ data: { reactionId: "r9" } });
    expect(mergeRefs(known, incoming)).toEqual(
      ref({ threadId: "t1", data: { chat: "c1", participant: "p1", reactionId: "r9" } }),
    );
  });
});
