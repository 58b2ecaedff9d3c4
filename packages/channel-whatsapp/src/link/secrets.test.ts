import { Redactor } from "@chorus/channel-kit";
import { BufferJSON, initAuthCreds } from "@whiskeysockets/baileys";
import { describe, expect, it } from "vitest";
import { linkedDeviceSecrets } from "./secrets.js";

describe("linkedDeviceSecrets", () => {
  it("lets a redactor remove every private key, the ADV secret and a pairing code from text", () => {
    const creds = { ...initAuthCreds(), pairingCode: "ABCD2345" };
    const redactor = new Redactor(linkedDeviceSecrets(creds));
    // The worst case: the whole credentials file ends up in a log line or an error.
    const leaked = redactor.text(`creds: ${JSON.stringify(creds, BufferJSON.replacer)}`);
    const privateKeys = [
      creds.noiseKey.private,
      creds.pairingEphemeralKeyPair.private,
      creds.signedIdentityKey.private,
      creds.signedPreKey.keyPair.private,
    ];
    for (const key of privateKeys) {
      expect(leaked).not.toContain(Buffer.from(key).toString("base64"));
      expect(redactor.text(Buffer.from(key).toString("hex"))).toBe("[redacted]");
    }
    expect(leaked).not.toContain(creds.advSecretKey);
    expect(leaked).not.toContain("ABCD2345");
    // Public keys are no secret and stay.
    expect(leaked).toContain(Buffer.from(creds.noiseKey.public).toString("base64"));
  });

  it("has nothing to say about credentials that hold no keys yet", () => {
    expect(linkedDeviceSecrets({})).toEqual([]);
  });
});
