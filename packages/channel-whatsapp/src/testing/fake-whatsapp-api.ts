import type { FakeServer, PlatformFault } from "@chorus/testkit";
import type { AuthenticationCreds, BinaryNode, proto } from "@whiskeysockets/baileys";
import type { FakeProblem } from "./context.js";
import type { FakeGroup, FakePerson, GroupInput, PersonInput } from "./directory.js";
import type { IqFailure, IqMatch, MessageFault } from "./faults.js";
import type { HostedMedium } from "./media-host.js";
import type { FakeMedium, PhoneMediumInput } from "./media-messages.js";
import type { FakeKey, FakeStoredMessage, SentReaction } from "./message-store.js";
import type { PairingCodeRequest } from "./pairing-code.js";
import type { PhoneMessageInput, ReactionTarget } from "./phone-actions.js";
import type { ReceivedStanza, StanzaFilter } from "./stanza-log.js";

/** Who the bot's account is. */
export interface FakeWhatsAppOptions {
  /** The bot account's phone number, digits; default `15550001000`. */
  botPhone?: string;
  /** Its push name; default `Chorus Bot`. */
  botName?: string;
  /** Its LID user part; default allocated. */
  botLid?: string;
  /** The largest upload the media host takes (413 over it); default 2 GB and the encryption's overhead. */
  maxUploadBytes?: number;
}

/** A person's phone shares a medium, a place or a contact card: directly, or in a group (`chat`). */
export interface PersonMediumInput extends PhoneMediumInput {
  /** The person's phone. */
  from: string;
  /** A group JID; absent = their direct chat with the bot. */
  chat?: string;
  /** Sent as view-once (`viewOnceMessageV2`), as phones send a photo or voice note "to view once". */
  viewOnce?: boolean;
  /** Default: a new WhatsApp-style id. */
  id?: string;
}

/** A person's phone writes to the bot: directly, or in a group (`chat`). */
export interface PersonSendInput extends PhoneMessageInput {
  /** The person's phone. */
  from: string;
  /** A group JID, or `status@broadcast` for a status update; absent = their direct chat with the bot. */
  chat?: string;
}

/** A person's phone sends a message that arrives damaged. */
export interface PersonUnreadableInput {
  /** The person's phone. */
  from: string;
  /** A group JID; absent = their direct chat with the bot. */
  chat?: string;
}

/** The bot account's owner writes from their phone (device 0): Baileys sees it as `fromMe`. */
export interface OwnerSendInput extends PhoneMessageInput {
  /** A group JID, a person's JID or phone. */
  chat: string;
}

/** A person's phone reacts to a message. */
export interface PersonReactInput {
  /** The person's phone. */
  from: string;
  /** A group JID; absent = their direct chat with the bot. */
  chat?: string;
  /** The target message's id, or its key fields when they must be exactly these. */
  target: string | ReactionTarget;
  /** The emoji; empty removes the person's reaction. */
  emoji: string;
}

/** The account owner reacts from their phone (shares the bot account's single reaction slot). */
export interface OwnerReactInput {
  /** A group JID, a person's JID or phone. */
  chat: string;
  target: string | ReactionTarget;
  emoji: string;
}

/**
 * A stateful fake of WhatsApp's multi-device chat server on 127.0.0.1 that the real Baileys
 * connects to (`makeWASocket({ waWebSocketUrl: fake.url })`): Noise handshake, logins, the iqs
 * Baileys asks, Signal-encrypted messages from the bot (decrypted by the fake's devices so tests see
 * exactly what reached "WhatsApp"), messages and reactions to the bot, linking, and faults.
 *
 * How it behaves where WhatsApp leaves a choice:
 * - Messages to the bot carry their content in `<plaintext>` (Baileys accepts it) instead of a
 *   Signal ciphertext. While no bot device is connected they are queued and delivered at the next
 *   login marked offline, so Baileys emits them as `append`, not `notify`.
 * - Every account lists one device, its phone (device 0), in usync; that is where the bot's copies
 *   go: a person's phone, and the bot account's own phone (which gets the `deviceSentMessage`).
 * - The server reports 50 prekeys, so Baileys never uploads its own.
 * - A device linked by `scanQr`/`enterPairingCode` gets an empty initial history sync at its first
 *   login (so Baileys goes online at once); `linkedCreds()` are already synced.
 * - Every `<message>` from the bot is acked (`<ack class="message" id>` with the same id) after
 *   the fake filed it, so the new state is visible by the time the ack arrives.
 * - An `<error code>` answer reaches callers of Baileys' `query()` (e.g. `groupMetadata`) as a Boom
 *   whose `data` is the code; its `output.statusCode` stays 500.
 */
export interface FakeWhatsApp {
  start(): Promise<void>;
  close(): Promise<void>;
  /** `ws://127.0.0.1:<port>/ws/chat`: Baileys' `waWebSocketUrl`. Throws before `start()`. */
  readonly url: string;
  /** The underlying fake server (WebSocket upgrades are in its request log). */
  readonly server: FakeServer;
  /** The bot's account. */
  readonly bot: FakePerson;

  /** Credentials of a new companion device already linked to the bot's account (`me`, `account`, synced). */
  linkedCreds(): AuthenticationCreds;
  /** Someone the bot can talk to, with a phone device of their own (LID allocated unless given). */
  addPerson(person: PersonInput): FakePerson;
  /** A person (or the bot) by phone or JID; throws for an unknown one. */
  person(phoneOrJid: string): FakePerson;
  /** A group with these members (the bot always included); LID-addressed unless `addressingMode: "pn"`. */
  addGroup(group: GroupInput): FakeGroup;
  /** The group as the fake holds it (a live object: changing `subject` changes what metadata reports). */
  group(jid: string): FakeGroup;

  /** A person writes; returns the key Baileys will emit (`messages.upsert`, type `notify`). */
  personSends(input: PersonSendInput): FakeKey;
  /**
   * A person shares a photo, video, audio, voice note, document, sticker, location, live location
   * or contact card: a medium is encrypted on "their phone" and uploaded to the media host first,
   * so the bot can download it as from WhatsApp's.
   */
  personSendsMedium(input: PersonMediumInput): FakeKey;
  /** The content a phone sends when it shares `input` (its medium uploaded to the media host), to send or wrap as a test likes. */
  phoneMedium(input: PhoneMediumInput): proto.IMessage;
  /**
   * A person's message arrives damaged: its `<plaintext>` ends in bytes that are no protobuf. Baileys cannot
   * decode it and hands it over as a CIPHERTEXT stub (after asking for it again with a retry
   * receipt, which the fake acks and does not answer).
   */
  personSendsUnreadable(input: PersonUnreadableInput): FakeKey;
  /** Delivers the last stanza sent to the bot again, unchanged: what WhatsApp does when a receipt was lost. */
  redeliverLast(): void;
  /**
   * Delivers a stanza to the bot's devices exactly as given (attributes and content), such as one from
   * Baileys' own tests: what a real server sends without the fake's usual extras. Nothing is filed.
   */
  deliverStanza(stanza: BinaryNode): void;
  /** The account owner writes from their phone; arrives with `key.fromMe: true`. */
  ownerSends(input: OwnerSendInput): FakeKey;
  /** A person reacts (single slot; `""` removes); Baileys emits `messages.reaction`. Returns the reaction message's key. */
  personReacts(input: PersonReactInput): FakeKey;
  /** The account owner reacts from their phone; Baileys sees a `fromMe` reaction. */
  ownerReacts(input: OwnerReactInput): FakeKey;

  /** Every message in a chat (group JID, person JID or phone), in order, the bot's decrypted. */
  messagesIn(chat: string): FakeStoredMessage[];
  /** The messages the bot (its Baileys socket) sent to a chat, decrypted. */
  botMessages(chat: string): FakeStoredMessage[];
  /** Reactions on a message: reactor's phone-number JID → emoji. */
  reactionsOn(chat: string, messageId: string): Record<string, string>;
  /** The bot account's reaction on a message, if any. */
  botReaction(chat: string, messageId: string): string | undefined;
  /** Every reaction the bot sent, with the target key exactly as sent. */
  botReactionsSent(): SentReaction[];
  /** Chat states (`composing`, `paused`, `recording`) the bot sent to a chat, in order. */
  presence(chat: string): string[];
  /**
   * The medium of a message as its recipients read it: the media host's bytes at its direct path,
   * decrypted with its media key and checked (MAC, hashes, length). Undefined for a message
   * without one, or one that fails a check (then also in `problems`).
   */
  mediumOf(message: FakeStoredMessage): FakeMedium | undefined;
  /** The upload auth `media_conn` hands out: a credential of the account, which nothing may report. */
  readonly mediaAuth: string;
  /** `127.0.0.1:<port>` of the media host (HTTPS, certificate `FAKE_MEDIA_TLS`), as `media_conn` names it. */
  readonly mediaHost: string;
  /** Media the bot's socket uploaded, oldest first (encrypted, as held). */
  mediaUploads(): HostedMedium[];
  /** Uploads the media host refused, with its status (401 bad auth, 400 bad token, 413 too large). */
  mediaRefusals(): { status: number; why: string }[];
  /** Bytes the media host served to downloads so far. */
  readonly mediaBytesServed: number;
  /** The media host forgets a medium (as WhatsApp does once it expired): its downloads get 404. */
  dropMedium(directPath: string): void;
  /**
   * The media host holds `enc` (encrypted bytes and MAC) under exactly `directPath`: a recorded
   * payload's medium a test encrypted with that payload's key, or damaged bytes in place of a medium.
   */
  hostMedium(directPath: string, enc: Uint8Array): void;

  /** Every node the bot sent after the handshake, optionally filtered. */
  stanzas(filter?: StanzaFilter): ReceivedStanza[];
  /** Nodes the fake had no handler for (answered with an empty result, or ignored). */
  unhandled(): ReceivedStanza[];
  /** What the fake could not make sense of; assert it is empty to know every message was read. */
  readonly problems: readonly FakeProblem[];
  /** Open WebSockets now. */
  readonly connections: number;
  /** Successful logins so far. */
  readonly logins: number;
  /** Resolves once `logins >= count` (default 1). */
  waitForLogin(count?: number, timeoutMs?: number): Promise<void>;
  /** Companion devices linked to the bot's account (device numbers). */
  linkedDevices(): number[];

  /** The bot account's phone scans the QR Baileys emitted: pair-success, then stream error 515. */
  scanQr(qr: string): Promise<void>;
  /** Pairing-code requests (`requestPairingCode`) seen so far; each was answered with a ref. */
  pairingCodeRequests(): PairingCodeRequest[];
  /** The person types the code on the bot account's phone: finishes the newest request like a scan. */
  enterPairingCode(code: string): Promise<void>;

  /** Network loss: cuts every socket without a closing handshake; resolves when they are closed. */
  dropConnections(): Promise<void>;
  /** The phone removes every linked device: open ones get stream error 401, later logins fail with 401. */
  logOut(): void;
  /**
   * The next `times` (default 1) iqs matching `match` are answered `<error code text>`, e.g.
   * `failNextIq({ xmlns: "w:g2" }, { code: 429, text: "rate-overlimit" })`.
   */
  failNextIq(match: IqMatch, error: IqFailure, times?: number): void;
  /**
   * The next `times` (default 1) messages or reactions the bot sends are refused with
   * `<ack error>` (`{ kind: "refuse", error: 479 }`, nothing filed) or filed without an ack
   * (`{ kind: "no-ack" }`). A refused group message's sender keys are lost with it; on WhatsApp
   * the members would then ask the bot to resend, which the fake does not play.
   */
  failNextMessage(fault: MessageFault, times?: number): void;
  /** The next `times` logins are refused with `<failure reason>` (401 logged out, 403 banned, 503 unavailable…). */
  failNextLogin(reason: number, times?: number): void;
  /**
   * From now on the whole server misbehaves like `kind`, until `heal()`: `refuse` answers logins,
   * iqs and messages with 503 (`<failure>`, `<error>`, `<ack error>`); `close` drops every socket
   * and cuts new ones; `hang` answers nothing (no server hello, no iq result, no ack); `garbage`
   * sends frames that are neither a Noise handshake nor an encrypted binary node (also at once,
   * to every open socket).
   */
  fault(kind: PlatformFault): Promise<void>;
  /** Ends the fault: the server answers normally again. */
  heal(): void;
}
