import { describe, expect, it } from "vitest";
import { formatBatch } from "../groups/index.js";
import { demoText, readGroupBatch } from "./demo-reply.js";

const at = 0;

describe("the demo agent in groups", () => {
  it("answers the current message of a batch and counts the context, not the markers", () => {
    const batch = formatBatch(
      [
        { sender: "Bob", text: "the train is late", messageId: "m1", at },
        { sender: "Cy", text: "again?", messageId: "m2", at },
      ],
      { sender: "Ann", e164: "+4915100000001", text: "@Chorus when do we eat?", messageId: "m3", at },
    );
    expect(readGroupBatch(batch)).toEqual({ current: "@Chorus when do we eat?", context: 2 });
    expect(demoText(batch)).toBe(
      'Demo agent (offline): you said "@Chorus when do we eat?" (with 2 earlier messages as context). Configure a model in chorus.json to talk to a real one.',
    );
  });

  it("a batch without pending messages and plain DM text are echoed as they are", () => {
    const alone = formatBatch([], { sender: "Ann", text: "hi: there", messageId: "m1", at });
    expect(readGroupBatch(alone)).toEqual({ current: "hi: there", context: 0 });
    expect(readGroupBatch("[not a batch] hello")).toEqual({ current: "[not a batch] hello", context: 0 });
  });
});
