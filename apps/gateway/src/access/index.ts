export { type AccessBot, type AccessSender, isNamedOwner, isOwner, isSelf, matchesAllowList } from "./allowlist.js";
export {
  describeSender,
  normalizePairingCode,
  PAIRING_CODE_ALPHABET,
  PAIRING_CODE_LENGTH,
  PAIRING_CODE_TTL_MS,
  type PairingEntry,
  type PairingList,
  type PairingSender,
  type PendingPairing,
  pairingFilePath,
} from "./pairing.js";
export { PairingStore, type PairingStoreOptions } from "./pairing-store.js";
export { phoneDigits, samePhone } from "./phone.js";
export { type AccessDecision, type AccessInput, checkAccess } from "./policy.js";
