import jsQRModule from "jsqr";
import { describe, expect, it } from "vitest";
import { renderQr } from "./qr.js";

// jsQR is CommonJS whose types say `export default`: under NodeNext the function is that default's `default`.
const jsQR = (jsQRModule as unknown as { default: typeof jsQRModule.default }).default;

const DATA = "2@AbCdEfGh,Zm9vYmFy,YmF6cXV4,c2VjcmV0,1";
const ESC = String.fromCharCode(27);
const ANSI_COLOUR = new RegExp(`${ESC}\\[[0-9;]*m`, "g");

/** The art's lines without their colour codes. */
function textLines(art: string): string[] {
  return art
    .trimEnd()
    .split("\n")
    .map((line) => line.replace(ANSI_COLOUR, ""));
}

/** The art's modules as an RGBA image (each module `scale` pixels, a white margin), for a QR reader. */
function toImage(art: string, scale = 4, margin = 4): { pixels: Uint8ClampedArray; width: number; height: number } {
  const rows: boolean[][] = [];
  for (const line of textLines(art)) {
    const chars = [...line];
    rows.push(chars.map((c) => c === "█" || c === "▀"));
    rows.push(chars.map((c) => c === "█" || c === "▄"));
  }
  const modules = rows[0]?.length ?? 0;
  const width = (modules + 2 * margin) * scale;
  const height = (rows.length + 2 * margin) * scale;
  const pixels = new Uint8ClampedArray(width * height * 4).fill(255);
  rows.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const at = (((y + margin) * scale + dy) * width + (x + margin) * scale + dx) * 4;
          pixels.fill(0, at, at + 3);
        }
      }
    });
  });
  return { pixels, width, height };
}

describe("renderQr", () => {
  it("draws block art on a terminal, black on white, a square of the same width on every line", async () => {
    const art = await renderQr(DATA, true);
    expect(art).not.toContain(DATA);
    const lines = textLines(art);
    expect(lines.length).toBeGreaterThan(10);
    expect(new Set(lines.map((line) => [...line].length)).size).toBe(1);
    expect(art).toMatch(/[█▀▄]/);
    for (const line of art.trimEnd().split("\n")) {
      expect(line.startsWith(`${ESC}[30;47m`) && line.endsWith(`${ESC}[0m`), JSON.stringify(line)).toBe(true);
    }
  });

  it("the art reads back as the data (a QR reader on the drawn modules)", async () => {
    for (const data of [DATA, "https://example.test/login?code=0123456789abcdef".repeat(3)]) {
      const { pixels, width, height } = toImage(await renderQr(data, true));
      expect(jsQR(pixels, width, height)?.data).toBe(data);
    }
  });

  it("prints the raw string when the output is piped", async () => {
    expect(await renderQr(DATA, false)).toBe(`QR code: ${DATA}\n`);
  });
});
