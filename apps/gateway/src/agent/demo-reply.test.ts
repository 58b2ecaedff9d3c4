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

describe("the demo agent and attachments", () => {
  it("says what it got, with the caption, so a first run shows a photo or a file arrived", () => {
    expect(demoText("look at this\n[photo image.png, 12 KB, mediaId med_1]")).toBe(
      'Demo agent (offline): I got your photo (image.png, 12 KB); you said "look at this". Configure a model in chorus.json to talk to a real one.',
    );
    expect(demoText("[file report.pdf, application/pdf, 3 KB, mediaId med_2]\nThe report's text")).toBe(
      "Demo agent (offline): I got your file (report.pdf, application/pdf, 3 KB). Configure a model in chorus.json to talk to a real one.",
    );
  });

  it("names every part of an album, in a group batch too", () => {
    const batch = formatBatch([], {
      sender: "Ann",
      text: "[photo a.png, 1 KB, mediaId med_1]\n[photo b.png, 2 KB, mediaId med_2]\n[voice note 0:03, mediaId med_3] hi",
      messageId: "m1",
      at,
    });
    expect(demoText(batch)).toBe(
      "Demo agent (offline): I got your photo (a.png, 1 KB), your photo (b.png, 2 KB) and your voice note (0:03). Configure a model in chorus.json to talk to a real one.",
    );
  });
});
