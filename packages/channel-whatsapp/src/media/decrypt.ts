import { createDecipheriv, createHash, createHmac, timingSafeEqual } from "node:crypto";
import { ChorusError } from "@chorus/core";

/** Bytes of the MAC WhatsApp appends to an encrypted medium (the first 10 of an HMAC-SHA256). */
export const MEDIA_MAC_BYTES = 10;
/** At most this much more than the medium comes down: a block of PKCS#7 padding and the MAC. */
export const ENCRYPTION_OVERHEAD = 16 + MEDIA_MAC_BYTES;

/** The keys a media key expands to (Baileys' `getMediaKeys`: HKDF-SHA256 with "WhatsApp <Type> Keys"). */
export interface MediaKeys {
  readonly iv: Uint8Array;
  readonly cipherKey: Uint8Array;
  readonly macKey: Uint8Array;
}

/** What the message says the medium is: hashes of the encrypted and the plain bytes, and its length. */
export interface MediaChecks {
  readonly fileEncSha256?: Uint8Array | undefined;
  readonly fileSha256?: Uint8Array | undefined;
  readonly fileLength?: number | undefined;
}

/**
 * Decrypts a medium as it streams from the media host, the way WhatsApp clients do (whatsmeow
 * `download.go`, `downloadAndDecrypt`): the body is AES-256-CBC ciphertext followed by a 10-byte
 * MAC, HMAC-SHA256 over the IV and the ciphertext. The MAC, the SHA-256 of what was downloaded
 * (`fileEncSha256`), of what it decrypts to (`fileSha256`) and the length are checked at the end;
 * a medium that fails any check errors the stream (Baileys' own download checks none of them).
 */
export function decryptMedium(
  keys: MediaKeys,
  checks: MediaChecks,
  what: string,
): TransformStream<Uint8Array, Uint8Array> {
  const decipher = createDecipheriv("aes-256-cbc", keys.cipherKey, keys.iv);
  const hmac = createHmac("sha256", keys.macKey).update(keys.iv);
  const encrypted = createHash("sha256");
  const plain = createHash("sha256");
  let tail: Buffer = Buffer.alloc(0);
  let length = 0;
  const push = (bytes: Buffer, controller: TransformStreamDefaultController<Uint8Array>) => {
    if (bytes.byteLength === 0) return;
    plain.update(bytes);
    length += bytes.byteLength;
    controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      // The last 10 bytes seen may be the MAC: they are held back until more come, or the end.
      const data = Buffer.concat([tail, chunk]);
      const body = data.subarray(0, Math.max(0, data.byteLength - MEDIA_MAC_BYTES));
      tail = Buffer.from(data.subarray(body.byteLength));
      hmac.update(body);
      encrypted.update(body);
      push(decipher.update(body), controller);
    },
    flush(controller) {
      if (tail.byteLength !== MEDIA_MAC_BYTES) throw corrupt(what, "it is shorter than its MAC");
      encrypted.update(tail);
      const mac = hmac.digest().subarray(0, MEDIA_MAC_BYTES);
      if (!timingSafeEqual(mac, tail)) throw corrupt(what, "its MAC does not match its media key");
      if (checks.fileEncSha256 && !sameBytes(encrypted.digest(), checks.fileEncSha256)) {
        throw corrupt(what, "its SHA-256 is not the one the message states");
      }
      let last: Buffer;
      try {
        last = decipher.final();
      } catch {
        throw corrupt(what, "it does not decrypt");
      }
      push(last, controller);
      if (checks.fileSha256 && !sameBytes(plain.digest(), checks.fileSha256)) {
        throw corrupt(what, "what it decrypts to is not what the message states");
      }
      if (checks.fileLength !== undefined && checks.fileLength !== length) {
        throw corrupt(what, `it decrypts to ${length} bytes, the message states ${checks.fileLength}`);
      }
    },
  });
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && timingSafeEqual(a, b);
}

function corrupt(what: string, why: string): ChorusError {
  return new ChorusError("E_PLATFORM", `${what} failed its integrity check: ${why}.`, {
    retryable: false,
    hint: "The medium on WhatsApp's media host is damaged or not the one the message names; ask the sender to send it again.",
  });
}
