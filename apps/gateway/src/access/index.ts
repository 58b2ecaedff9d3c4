// Who may talk to the agent: allowlists, DM and group policies, owners, and pairing codes for people not yet approved.
export { type AccessBot, type AccessSender, isNamedOwner, isOwner, isSelf, matchesAllowList } from "./allowlist.js";
export {
  describeSender,
  EXPIRED_KEPT_MS,
  emptyPairingFile,
  expired,
  newCode,
  normalizePairingCode,
  PAIRING_CODE_ALPHABET,
  PAIRING_CODE_LENGTH,
  PAIRING_CODE_TTL_MS,
  type PairingEntry,
  type PairingFile,
  type PairingList,
  type PairingSender,
  type PendingPairing,
  pairingFilePath,
  pairingFileSchema,
} from "./pairing.js";
export { PAIRING_KEY, PAIRING_SCOPE, PairingStore, type PairingStoreOptions } from "./pairing-store.js";
export { phoneDigits, samePhone } from "./phone.js";
export { type AccessDecision, type AccessInput, checkAccess } from "./policy.js";
