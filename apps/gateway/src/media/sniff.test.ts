import { sampleMedium } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { defaultFilename, filenameOfUrl, sanitizeFilename } from "./filename.js";
import { sniffMedium } from "./sniff.js";

describe("sniffMedium: the kind and type from the bytes (DESIGN §2.6 rule 2)", () => {
  it("knows each sample kind by its bytes alone", async () => {
    const sniffed = async (kind: Parameters<typeof sampleMedium>[0]) => {
      const bytes = sampleMedium(kind).bytes;
      return sniffMedium(bytes, true);
    };
    expect(await sniffed("image")).toEqual({ kind: "image", mime: "image/png", ext: "png" });
    expect(await sniffed("video")).toEqual({ kind: "video", mime: "video/mp4", ext: "mp4" });
    expect(await sniffed("audio")).toEqual({ kind: "audio", mime: "audio/mpeg", ext: "mp3" });
    expect(await sniffed("file")).toEqual({ kind: "file", mime: "application/pdf", ext: "pdf" });
    expect(await sniffed("sticker")).toEqual({ kind: "image", mime: "image/webp", ext: "webp" });
  });

  it("Ogg/Opus is audio (a caller's `as` makes it a voice note), named .ogg", async () => {
    expect(await sniffMedium(sampleMedium("voice").bytes, true)).toEqual({
      kind: "audio",
      mime: "audio/ogg",
      ext: "ogg",
    });
  });

  it("plain UTF-8 text is text/plain, kind file; a head cut inside a character is still text", async () => {
    const text = new TextEncoder().encode("Grüße aus Köln\nline two\r\n\ttabbed");
    expect(await sniffMedium(text, true)).toEqual({ kind: "file", mime: "text/plain", ext: "txt" });
    const cut = new TextEncoder().encode("abc ü").slice(0, -1);
    expect(await sniffMedium(cut, false)).toEqual({ kind: "file", mime: "text/plain", ext: "txt" });
    expect((await sniffMedium(cut, true)).mime).toBe("application/octet-stream");
  });

  it("anything else is application/octet-stream, whatever a name or header would claim", async () => {
    const binary = new Uint8Array([0x00, 0x01, 0x02, 0xff, 0xfe, 0x10, 0x00]);
    expect(await sniffMedium(binary, true)).toEqual({ kind: "file", mime: "application/octet-stream", ext: "bin" });
    expect(await sniffMedium(new Uint8Array(), true)).toEqual({
      kind: "file",
      mime: "application/octet-stream",
      ext: "bin",
    });
  });
});

describe("file names", () => {
  it("sanitises a name: no path, control or direction characters, leading dots or header breakers", () => {
    expect(sanitizeFilename("../../etc/passwd")).toBe("passwd");
    expect(sanitizeFilename("C:\\Users\\x\\report.pdf")).toBe("report.pdf");
    expect(sanitizeFilename("inv\u202Egpj.exe")).toBe("invgpj.exe");
    expect(sanitizeFilename("a\r\nb\u0000c.txt")).toBe("abc.txt");
    expect(sanitizeFilename('say "hi".txt')).toBe("say _hi_.txt");
    expect(sanitizeFilename("...hidden")).toBe("hidden");
    expect(sanitizeFilename("  \u200B ")).toBeUndefined();
  });

  it("cuts a long name, keeping its extension", () => {
    const long = `${"a".repeat(300)}.jpeg`;
    const cut = sanitizeFilename(long) as string;
    expect(cut.length).toBe(120);
    expect(cut.endsWith(".jpeg")).toBe(true);
  });

  it("takes a URL's last segment, decoded; none when the path ends in /", () => {
    expect(filenameOfUrl(new URL("https://cdn.example/a/Q3%20report.pdf?x=1"))).toBe("Q3 report.pdf");
    expect(filenameOfUrl(new URL("https://cdn.example/a/%E0%A4%A.png"))).toBe("%E0%A4%A.png");
    expect(filenameOfUrl(new URL("https://cdn.example/a/"))).toBeUndefined();
  });

  it("makes one from the kind and the sniffed type when nothing gave one", () => {
    expect(defaultFilename("image", "png")).toBe("image.png");
  });
});
