import { encode } from "uqr";

const ESC = String.fromCharCode(27);
/** Black on white whatever the terminal's theme: a phone reads dark modules on a light ground. */
const BLACK_ON_WHITE = `${ESC}[30;47m`;
const RESET = `${ESC}[0m`;

/**
 * A QR code for a terminal: block art on a TTY (what a phone scans), and the raw string when the
 * output is piped, so scripts and tests can read it and any QR tool can draw it.
 */
export async function renderQr(data: string, tty: boolean): Promise<string> {
  if (!tty) return `QR code: ${data}\n`;
  // A quiet zone of one module is drawn by `encode`'s border; two module rows per text line.
  const { data: modules, size } = encode(data, { ecc: "L", border: 1 });
  const lines: string[] = [];
  for (let y = 0; y < size; y += 2) {
    let line = "";
    for (let x = 0; x < size; x++) line += halfBlock(modules[y]?.[x] === true, modules[y + 1]?.[x] === true);
    lines.push(`${BLACK_ON_WHITE}${line}${RESET}`);
  }
  return `${lines.join("\n")}\n\n`;
}

/** The character for a dark (true) or light upper and lower module. */
function halfBlock(upper: boolean, lower: boolean): string {
  if (upper) return lower ? "█" : "▀";
  return lower ? "▄" : " ";
}
