import type { AuthenticationCreds } from "@whiskeysockets/baileys";

/**
 * The secrets of a linked device, as text could carry them: its private keys (base64, as
 * `creds.json` stores them, and hex), the ADV secret and a pending pairing code. WhatsApp has no
 * token in the config; these are what the redactor must keep out of logs, errors and statuses.
 */
export function linkedDeviceSecrets(creds: Partial<AuthenticationCreds>): string[] {
  const keys = [
    creds.noiseKey?.private,
    creds.pairingEphemeralKeyPair?.private,
    creds.signedIdentityKey?.private,
    creds.signedPreKey?.keyPair?.private,
  ];
  const secrets: string[] = [];
  for (const key of keys) {
    if (!key || key.length === 0) continue;
    const bytes = Buffer.from(key);
    secrets.push(bytes.toString("base64"), bytes.toString("hex"));
  }
  if (creds.advSecretKey) secrets.push(creds.advSecretKey);
  if (creds.pairingCode) secrets.push(creds.pairingCode);
  return secrets;
}
