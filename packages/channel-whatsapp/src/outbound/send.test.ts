import { describe, expect, it } from "vitest";
import { placeMentions } from "./send.js";

describe("placeMentions", () => {
  it("each mention goes with the parts that show its number; those none shows go with the first", () => {
    const parts = ["hi @15551230001", "and @15551230002, also @155512300011"];
    expect(
      placeMentions(parts, [
        "15551230001@s.whatsapp.net",
        "15551230002@s.whatsapp.net",
        "100000000000009@lid",
        "15551230001@s.whatsapp.net",
      ]),
    ).toEqual([["15551230001@s.whatsapp.net", "100000000000009@lid"], ["15551230002@s.whatsapp.net"]]);
  });
});
