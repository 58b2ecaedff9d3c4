import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The fake media host's TLS key and certificate: self-signed, for `127.0.0.1` and `localhost`,
 * valid 2020–2120, made for these tests only (never a secret: it guards nothing but loopback test
 * traffic). Baileys uploads media only over HTTPS (`getWAUploadToServer` builds
 * `https://<host>/mms/…`) and downloads from `https://<host><directPath>`, so the fake speaks TLS;
 * a process trusts it through `NODE_EXTRA_CA_CERTS` (`fakeMediaCaFile()`), which Node reads at
 * start for both `https` and `fetch`.
 */
export const FAKE_MEDIA_TLS = {
  key: [
    "-----BEGIN PRIVATE KEY-----",
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgw8fvdHUkmhrdfBYa",
    "MajtZfdP09B6bd39Ohluopi1d5qhRANCAATv3byrrlukSUsPYb0uxiHw2snfd4gF",
    "yP7Hrd+Qi7MuFujbcOae0+maw3+CYk6U+0MALgMuuFAhPVVEkl34Ghcf",
    "-----END PRIVATE KEY-----",
    "",
  ].join("\n"),
  cert: [
    "-----BEGIN CERTIFICATE-----",
    "MIIB0TCCAXigAwIBAgIBATAKBggqhkjOPQQDAjA3MTUwMwYDVQQDDCxDaG9ydXMg",
    "ZmFrZSBXaGF0c0FwcCBtZWRpYSBob3N0ICh0ZXN0cyBvbmx5KTAgFw0yMDAxMDEw",
    "MDAwMDBaGA8yMTIwMDEwMTAwMDAwMFowNzE1MDMGA1UEAwwsQ2hvcnVzIGZha2Ug",
    "V2hhdHNBcHAgbWVkaWEgaG9zdCAodGVzdHMgb25seSkwWTATBgcqhkjOPQIBBggq",
    "hkjOPQMBBwNCAATv3byrrlukSUsPYb0uxiHw2snfd4gFyP7Hrd+Qi7MuFujbcOae",
    "0+maw3+CYk6U+0MALgMuuFAhPVVEkl34Ghcfo3MwcTAaBgNVHREEEzARhwR/AAAB",
    "gglsb2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYD",
    "VR0lBAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFFcQJBKboObE1u57WNaTKTKP0iV8",
    "MAoGCCqGSM49BAMCA0cAMEQCIBmHlSpn6df3ahrGhB1LjOy11Zi8d3pdy8BGehIa",
    "8RvZAiAhVXOtbT3p7J368n6sg3EMkhuq6TDmnLWgi4u4nB8nDA==",
    "-----END CERTIFICATE-----",
    "",
  ].join("\n"),
} as const;

/**
 * A file holding the fake media host's certificate, for `NODE_EXTRA_CA_CERTS` of a process that
 * talks to the fake (a test runner's workers, a gateway started by an end-to-end test). Written
 * once under the temp directory, named by its content.
 */
export function fakeMediaCaFile(): string {
  const name = `chorus-fake-whatsapp-media-${createHash("sha256").update(FAKE_MEDIA_TLS.cert).digest("hex").slice(0, 12)}.pem`;
  const dir = join(tmpdir(), "chorus-test-ca");
  const path = join(dir, name);
  try {
    if (readFileSync(path, "utf8") === FAKE_MEDIA_TLS.cert) return path;
  } catch {
    // not written yet
  }
  mkdirSync(dir, { recursive: true });
  // Written aside and renamed: a process reading it meanwhile never sees half a certificate.
  const aside = `${path}.${process.pid}.tmp`;
  writeFileSync(aside, FAKE_MEDIA_TLS.cert);
  renameSync(aside, path);
  return path;
}
