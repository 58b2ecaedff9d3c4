import { createDecipheriv, createHash } from "node:crypto";
import { safeEqual } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";

/**
 * Decrypts the `encrypt` field of an encrypted delivery: AES-256-CBC with the SHA-256 of the
 * Encrypt Key as key, the first 16 bytes of the base64-decoded text as IV, PKCS#7 padding
 * (Feishu's "接收事件" guide). Throws `E_INVALID_INPUT` when it is not Feishu's ciphertext for this key.
 */
export function decryptEvent(encryptKey: string, encrypted: string): string {
  const raw = Buffer.from(encrypted, "base64");
  if (raw.length < 32 || raw.length % 16 !== 0) {
    throw new ChorusError("E_INVALID_INPUT", "encrypted delivery is not AES-256-CBC ciphertext (wrong length)");
  }
  const key = createHash("sha256").update(encryptKey).digest();
  try {
    const decipher = createDecipheriv("aes-256-cbc", key, raw.subarray(0, 16));
    return Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]).toString("utf8");
  } catch {
    throw new ChorusError("E_INVALID_INPUT", "encrypted delivery does not decrypt with the configured encryptKey");
  }
}

/** `X-Lark-Signature`: the hex SHA-256 of timestamp + nonce + Encrypt Key + the raw body bytes. */
export function eventSignature(timestamp: string, nonce: string, encryptKey: string, body: Buffer): string {
  return createHash("sha256")
    .update(Buffer.concat([Buffer.from(timestamp + nonce + encryptKey), body]))
    .digest("hex");
}

/** Why a delivery's signature headers are not Feishu's, or undefined when they are. */
export function signatureProblem(headers: Headers, encryptKey: string, body: Buffer): string | undefined {
  const timestamp = headers.get("x-lark-request-timestamp");
  const nonce = headers.get("x-lark-request-nonce");
  const signature = headers.get("x-lark-signature");
  if (!timestamp || !nonce || !signature) return "missing X-Lark-Request-Timestamp, -Nonce or X-Lark-Signature";
  // Constant time: `===` would leak, byte by byte, how much of a guess was right.
  return safeEqual(eventSignature(timestamp, nonce, encryptKey, body), signature)
    ? undefined
    : "signature does not match";
}
