/**
 * The fake Zalo's side of the wire: the listener's frames (a 4-byte header, then JSON), the
 * encrypted event payloads, and the request signatures of the login pair.
 */
import { type CipherGCM, type CipherGCMTypes, createCipheriv, createHash, randomBytes } from "node:crypto";
import { deflateSync } from "node:zlib";

/** A listener frame: version 1, `cmd` (16 bits, little endian), `subCmd`, then the JSON payload. */
export function frame(cmd: number, subCmd: number, payload: unknown, version = 1): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt8(version, 0);
  header.writeUInt16LE(cmd, 1);
  header.writeUInt8(subCmd, 3);
  return Buffer.concat([header, Buffer.from(typeof payload === "string" ? payload : JSON.stringify(payload))]);
}

/** A frame a client sent, read back: its header and JSON (undefined when the body is not JSON). */
export function readFrame(data: Buffer): { version: number; cmd: number; subCmd: number; payload: unknown } {
  let payload: unknown;
  try {
    payload = JSON.parse(data.subarray(4).toString("utf8"));
  } catch {
    payload = undefined;
  }
  return { version: data.readUInt8(0), cmd: data.readUInt16LE(1), subCmd: data.readUInt8(3), payload };
}

/** How an event's `data` is encoded: 0 plain JSON, 1 deflated, 2 deflated then AES-GCM, 3 AES-GCM only. */
export type EventEncoding = 0 | 1 | 2 | 3;

/**
 * The `{ data, encrypt }` body of an event frame. With 2 and 3 the JSON is sealed with AES-GCM
 * under the socket's cipher key: a 16-byte IV, 16 bytes of additional data, then the ciphertext
 * with its tag; base64, URL-encoded.
 */
export function eventBody(json: string, encoding: EventEncoding, cipherKey: Buffer): { data: string; encrypt: number } {
  if (encoding === 0) return { data: json, encrypt: 0 };
  const bytes = encoding === 3 ? Buffer.from(json) : deflateSync(Buffer.from(json));
  if (encoding === 1) return { data: bytes.toString("base64"), encrypt: 1 };
  const iv = randomBytes(16);
  const aad = randomBytes(16);
  const cipher = createCipheriv(`aes-${cipherKey.length * 8}-gcm` as CipherGCMTypes, cipherKey, iv) as CipherGCM;
  cipher.setAAD(aad);
  const sealed = Buffer.concat([iv, aad, cipher.update(bytes), cipher.final(), cipher.getAuthTag()]);
  return { data: encodeURIComponent(sealed.toString("base64")), encrypt: encoding };
}

/** The `signkey` zca-js sends: MD5 of "zsecure", the call's type and the values of the params in key order. */
export function signKey(type: string, params: Record<string, string>): string {
  const keys = Object.keys(params).sort();
  return createHash("md5")
    .update(`zsecure${type}${keys.map((k) => params[k]).join("")}`)
    .digest("hex");
}

/**
 * JSON text in which `BigInt` values are written as bare numbers: Zalo writes ids such as a
 * quote's `ownerId` as numbers beyond 2^53, which zca-js reads with json-bigint.
 */
export function bigJson(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? `__big__${item}__` : item)).replace(
    /"__big__(\d+)__"/g,
    "$1",
  );
}
