/**
 * The fake WhatsApp multi-device server, exported on `@chorus/channel-whatsapp/testing` so the
 * plugin's tests, the gateway's end-to-end tests and other authors can drive the real Baileys
 * against it.
 */

export {
  type BaileysClient,
  type BaileysClientOptions,
  connectBaileys,
  disconnectCode,
} from "./baileys-client.js";
export { WHATSAPP_CERT_CHAIN } from "./cert-chain.js";
export type { FakeProblem } from "./context.js";
export type { Addressing, FakeGroup, FakePerson, GroupInput, PersonInput } from "./directory.js";
export { createFakeWhatsApp } from "./fake-whatsapp.js";
export type {
  FakeWhatsApp,
  FakeWhatsAppOptions,
  OwnerReactInput,
  OwnerSendInput,
  PersonMediumInput,
  PersonReactInput,
  PersonSendInput,
  PersonUnreadableInput,
} from "./fake-whatsapp-api.js";
export type { IqFailure, IqMatch, MessageFault } from "./faults.js";
export type { HostedMedium } from "./media-host.js";
export type { FakeMedium, PhoneMediumInput } from "./media-messages.js";
export { FAKE_MEDIA_TLS, fakeMediaCaFile } from "./media-tls.js";
export { createMemoryKeyStore } from "./memory-key-store.js";
export type { QuotedRef } from "./message-content.js";
export type { FakeKey, FakeStoredMessage, MessageOrigin, SentReaction } from "./message-store.js";
export type { PairingCodeRequest } from "./pairing-code.js";
export type { PhoneMessageInput, ReactionTarget } from "./phone-actions.js";
export { saveLinkedCreds } from "./save-creds.js";
export { type BaileysLogger, silentBaileysLogger } from "./silent-logger.js";
export type { ReceivedStanza, StanzaFilter } from "./stanza-log.js";
