import QRCode from "qrcode";

/**
 * A QR code for a terminal: block art on a TTY (what a phone scans), and the raw string when the
 * output is piped, so scripts and tests can read it and any QR tool can draw it.
 */
export async function renderQr(data: string, tty: boolean): Promise<string> {
  if (!tty) return `QR code: ${data}\n`;
  const art = await QRCode.toString(data, { type: "terminal", small: true, errorCorrectionLevel: "L" });
  return `${art}\n`;
}
