import { ChorusError } from "@chorus/core";
import { SAMPLE_PDF_TEXT, sampleMedium } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { extractText, readableAs } from "./extract.js";

const pdf = sampleMedium("file").bytes;
const utf8 = (text: string) => new TextEncoder().encode(text);

describe("a file's text", () => {
  it("reads a PDF's text", async () => {
    expect(readableAs({ mime: "application/octet-stream" }, pdf)).toBe("pdf");
    expect(await extractText(pdf, "pdf", 20_000)).toBe(SAMPLE_PDF_TEXT);
  });

  it("cuts a long text at the limit and says how much is left out", async () => {
    const text = `${"a".repeat(30)}\r\n${"b".repeat(30)}`;
    expect(await extractText(utf8(text), "text", 40)).toBe(
      `${"a".repeat(30)}\n${"b".repeat(9)}\n…[truncated: 21 more characters]`,
    );
  });

  it("takes text files by type or name, never a binary file with a text name", () => {
    expect(readableAs({ mime: "text/plain" }, utf8("hello"))).toBe("text");
    expect(readableAs({ mime: "application/octet-stream", filename: "notes.md" }, utf8("# hi ✓"))).toBe("text");
    expect(
      readableAs({ mime: "application/octet-stream", filename: "notes.md" }, new Uint8Array([0x68, 0, 0xff])),
    ).toBe(undefined);
    expect(readableAs({ mime: "application/zip", filename: "a.zip" }, utf8("PK"))).toBe(undefined);
  });

  it("a damaged PDF is a typed error saying so", async () => {
    const damaged = utf8("%PDF-1.4\nthis is not really a pdf");
    const error = await extractText(damaged, "pdf", 100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChorusError);
    expect((error as ChorusError).message).toBe("the PDF is damaged or not a PDF");
  });
});
