import { describe, expect, it } from "vitest";
import { contactCardOf } from "./vcard.js";

describe("contactCardOf: a shared contact's vCard", () => {
  it("takes the display name and every TEL, as the phone formatted it", () => {
    const vcard =
      "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nTEL;type=CELL:+49 151 1234\r\nitem2.TEL;waid=4930123:+49 30 123\r\nEND:VCARD";
    expect(contactCardOf({ displayName: "Ann Lee", vcard })).toEqual({
      name: "Ann Lee",
      phones: ["+49 151 1234", "+49 30 123"],
      vcard,
    });
  });

  it("falls back to FN for the name, to the waid for an empty number, and unfolds continued lines", () => {
    const vcard = "BEGIN:VCARD\nFN:Charles\n  Babbage\nitem1.TEL;waid=447700900123:\nEND:VCARD";
    expect(contactCardOf({ vcard })).toMatchObject({ name: "Charles Babbage", phones: ["+447700900123"] });
  });

  it("unescapes commas and semicolons; a card without a name is named by its number; one without either is none", () => {
    expect(contactCardOf({ vcard: "FN:Smith\\, John\nTEL:+1 555" })).toMatchObject({ name: "Smith, John" });
    expect(contactCardOf({ vcard: "TEL:+1 555 0100" })).toMatchObject({ name: "+1 555 0100" });
    expect(contactCardOf({ displayName: "  ", vcard: "BEGIN:VCARD\nEND:VCARD" })).toBeUndefined();
  });
});
