/**
 * The AES of Zalo's web protocol, as zca-js speaks it: AES-CBC with a zero IV and PKCS#7 padding,
 * base64 on the wire. Two keys exist: the login pair's key (32 characters used as UTF-8 bytes,
 * derived from the `zcid`/`zcid_ext` query of `getLoginInfo`), and the session key `zpw_enk`
 * (base64) that every API body and answer is encrypted with afterwards.
 */
import { createCipheriv, createDecipheriv, createHash } from "node:crypto";

const ZERO_IV = Buffer.alloc(16);

function cipherName(key: Buffer): string {
  if (![16, 24, 32].includes(key.length)) throw new Error(`an AES key has 16, 24 or 32 bytes, not ${key.length}`);
  return `aes-${key.length * 8}-cbc`;
}

/** `plaintext` encrypted with `key`, base64. */
export function encryptAes(key: Buffer, plaintext: string): string {
  const cipher = createCipheriv(cipherName(key), key, ZERO_IV);
  return Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]).toString("base64");
}

/** The text of base64 (or URL-encoded base64) `data` encrypted with `key`; throws when it is not. */
export function decryptAes(key: Buffer, data: string): string {
  const decipher = createDecipheriv(cipherName(key), key, ZERO_IV);
  const bytes = Buffer.from(decodeURIComponent(data), "base64");
  return Buffer.concat([decipher.update(bytes), decipher.final()]).toString("utf8");
}

/** The session key (`zpw_enk`, base64) as AES key bytes. */
export const sessionKey = (zpwEnk: string): Buffer => Buffer.from(zpwEnk, "base64");

/**
 * The key of one `getLoginInfo` exchange, re-derivable by both sides from the query's `zcid`
 * and `zcid_ext`: the even characters of MD5(zcid_ext) in upper case (8), the even characters of
 * zcid (12), and the odd characters of zcid reversed (12), used as UTF-8 bytes.
 */
export function loginKey(zcid: string, zcidExt: string): Buffer {
  const md5 = createHash("md5").update(zcidExt).digest("hex").toUpperCase();
  const even = (text: string) => [...text].filter((_, i) => i % 2 === 0);
  const odd = (text: string) => [...text].filter((_, i) => i % 2 === 1);
  const key =
    even(md5).slice(0, 8).join("") + even(zcid).slice(0, 12).join("") + odd(zcid).reverse().slice(0, 12).join("");
  return Buffer.from(key, "utf8");
}
