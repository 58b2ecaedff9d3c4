import {
  Curve,
  hmacSign,
  type KeyPair,
  proto,
  WA_ADV_ACCOUNT_SIG_PREFIX,
  WA_ADV_DEVICE_SIG_PREFIX,
} from "@whiskeysockets/baileys";

/**
 * The ADV ("account device verification") identity the primary phone issues when it links a
 * companion: the device details signed with the phone's identity key over the companion's
 * identity key. Baileys verifies it at pair-success and sends it with every `pkmsg`.
 */
export interface DeviceIdentity {
  /** `ADVDeviceIdentity` bytes. */
  details: Uint8Array;
  accountSignatureKey: Uint8Array;
  accountSignature: Uint8Array;
}

/** Signs a new companion device (`keyIndex` = its device number) with the phone's identity key. */
export function issueDeviceIdentity(
  phoneIdentity: KeyPair,
  companionIdentityKey: Uint8Array,
  keyIndex: number,
): DeviceIdentity {
  const details = proto.ADVDeviceIdentity.encode({
    rawId: Math.floor(Math.random() * 0x7fffffff),
    timestamp: Math.floor(Date.now() / 1000),
    keyIndex,
  }).finish();
  const accountSignature = Curve.sign(
    phoneIdentity.private,
    Buffer.concat([WA_ADV_ACCOUNT_SIG_PREFIX, details, companionIdentityKey]),
  );
  return { details, accountSignatureKey: phoneIdentity.public, accountSignature };
}

/** The `<device-identity>` payload of pair-success: the signed identity, HMACed with the companion's ADV secret. */
export function pairSuccessIdentity(identity: DeviceIdentity, advSecretKey: Uint8Array): Uint8Array {
  const signed = proto.ADVSignedDeviceIdentity.encode(identity).finish();
  return proto.ADVSignedDeviceIdentityHMAC.encode({
    details: signed,
    hmac: hmacSign(signed, Buffer.from(advSecretKey)),
  }).finish();
}

/** What Baileys stores as `creds.account` after pairing: the identity plus the companion's own signature. */
export function linkedAccount(identity: DeviceIdentity, companionIdentity: KeyPair): proto.IADVSignedDeviceIdentity {
  const deviceSignature = Curve.sign(
    companionIdentity.private,
    Buffer.concat([WA_ADV_DEVICE_SIG_PREFIX, identity.details, companionIdentity.public, identity.accountSignatureKey]),
  );
  return { ...identity, deviceSignature };
}

/** Checks the companion's signature in its `pair-device-sign` answer. */
export function verifyDeviceSignature(
  signedIdentity: Uint8Array,
  companionIdentityKey: Uint8Array,
  phoneIdentityKey: Uint8Array,
): boolean {
  const account = proto.ADVSignedDeviceIdentity.decode(signedIdentity);
  if (!account.deviceSignature || !account.details) return false;
  const message = Buffer.concat([WA_ADV_DEVICE_SIG_PREFIX, account.details, companionIdentityKey, phoneIdentityKey]);
  return Curve.verify(companionIdentityKey, message, account.deviceSignature);
}
