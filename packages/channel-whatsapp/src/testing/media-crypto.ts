import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";

/** The app info each kind of medium expands its media key with (whatsmeow `download.go`, `MediaType`). */
export type MediaKeyInfo = "Image" | "Video" | "Audio" | "Document";

/** A medium as a phone uploads it: the encrypted bytes, and what its message carries. */
export interface EncryptedMedium {
  readonly mediaKey: Buffer;
  /** The ciphertext followed by the 10-byte MAC: what the media host stores. */
  readonly enc: Buffer;
  readonly fileEncSha256: Buffer;
  readonly fileSha256: Buffer;
  readonly fileLength: number;
}

/** The IV, cipher key and MAC key a media key expands to: HKDF-SHA256, no salt, "WhatsApp <Info> Keys", 112 bytes. */
export function mediaKeysOf(
  mediaKey: Uint8Array,
  info: MediaKeyInfo,
): { iv: Buffer; cipherKey: Buffer; macKey: Buffer } {
  const expanded = Buffer.from(hkdfSync("sha256", mediaKey, Buffer.alloc(0), `WhatsApp ${info} Keys`, 112));
  return { iv: expanded.subarray(0, 16), cipherKey: expanded.subarray(16, 48), macKey: expanded.subarray(48, 80) };
}

/**
 * Encrypts a medium the way a WhatsApp client does before uploading it (whatsmeow `upload.go`,
 * `Upload`), with a fresh media key unless given one (a recorded payload's, to host its bytes).
 */
export function encryptMedium(
  plain: Uint8Array,
  info: MediaKeyInfo,
  mediaKey: Buffer = randomBytes(32),
): EncryptedMedium {
  const { iv, cipherKey, macKey } = mediaKeysOf(mediaKey, info);
  const cipher = createCipheriv("aes-256-cbc", cipherKey, iv);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  const mac = createHmac("sha256", macKey).update(iv).update(ciphertext).digest().subarray(0, 10);
  const enc = Buffer.concat([ciphertext, mac]);
  return {
    mediaKey,
    enc,
    fileEncSha256: sha256(enc),
    fileSha256: sha256(plain),
    fileLength: plain.byteLength,
  };
}

/** What a message says of its medium, for checking what the media host holds. */
export interface MediumClaims {
  readonly mediaKey: Uint8Array;
  readonly fileEncSha256?: Uint8Array | null | undefined;
  readonly fileSha256?: Uint8Array | null | undefined;
  readonly fileLength?: number | undefined;
}

/**
 * Decrypts what the media host holds with the key a message carries, checking it as a recipient's
 * phone would: MAC, both hashes, length. Returns the bytes, or why a phone would refuse them.
 */
export function decryptMedium(enc: Uint8Array, info: MediaKeyInfo, claims: MediumClaims): Buffer | { problem: string } {
  if (enc.byteLength <= 10) return { problem: "the stored medium is shorter than its MAC" };
  const { iv, cipherKey, macKey } = mediaKeysOf(claims.mediaKey, info);
  const ciphertext = enc.subarray(0, enc.byteLength - 10);
  const mac = createHmac("sha256", macKey).update(iv).update(ciphertext).digest().subarray(0, 10);
  if (!timingSafeEqual(mac, enc.subarray(enc.byteLength - 10)))
    return { problem: "the MAC does not match the media key" };
  if (claims.fileEncSha256 && !sha256(enc).equals(Buffer.from(claims.fileEncSha256))) {
    return { problem: "fileEncSha256 is not the SHA-256 of the uploaded bytes" };
  }
  let plain: Buffer;
  try {
    const decipher = createDecipheriv("aes-256-cbc", cipherKey, iv);
    plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    return { problem: "the upload does not decrypt with the media key" };
  }
  if (claims.fileSha256 && !sha256(plain).equals(Buffer.from(claims.fileSha256))) {
    return { problem: "fileSha256 is not the SHA-256 of the decrypted bytes" };
  }
  if (claims.fileLength !== undefined && claims.fileLength !== plain.byteLength) {
    return { problem: `fileLength says ${claims.fileLength}, the medium has ${plain.byteLength} bytes` };
  }
  return plain;
}

/** The upload token of encrypted bytes: their SHA-256, URL-safe base64 without padding (Baileys `encodeBase64EncodedStringForUpload`). */
export function uploadToken(enc: Uint8Array): string {
  return sha256(enc).toString("base64url");
}

function sha256(bytes: Uint8Array): Buffer {
  return createHash("sha256").update(bytes).digest();
}
