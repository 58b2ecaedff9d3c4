import jsQRModule from "jsqr";
import { PNG } from "pngjs";

// jsQR is CommonJS whose types say `export default`: under NodeNext the function is that default's `default`.
const jsQR = (jsQRModule as unknown as { default: typeof jsQRModule.default }).default;

/** The text a QR code PNG (base64, with or without its `data:` prefix) holds, or undefined when none can be read. */
export function readQrPng(base64: string): string | undefined {
  try {
    const png = PNG.sync.read(Buffer.from(base64.replace(/^data:image\/png;base64,/, ""), "base64"));
    const found = jsQR(
      new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length),
      png.width,
      png.height,
    );
    return found?.data || undefined;
  } catch {
    return undefined;
  }
}
