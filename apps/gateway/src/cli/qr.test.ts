import { describe, expect, it } from "vitest";
import { renderQr } from "./qr.js";

const DATA = "2@AbCdEfGh,Zm9vYmFy,YmF6cXV4,c2VjcmV0,1";

describe("renderQr", () => {
  it("draws block art on a terminal, a square of the same width on every line", async () => {
    const art = await renderQr(DATA, true);
    expect(art).not.toContain(DATA);
    const ansiColour = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
    const lines = art.replace(ansiColour, "").trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(10);
    expect(new Set(lines.map((line) => [...line].length)).size).toBe(1);
    expect(art).toMatch(/[█▀▄]/);
  });

  it("prints the raw string when the output is piped", async () => {
    expect(await renderQr(DATA, false)).toBe(`QR code: ${DATA}\n`);
  });
});
