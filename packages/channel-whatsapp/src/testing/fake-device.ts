import {
  addTransactionCapability,
  type BinaryNode,
  Curve,
  encodeBigEndian,
  generateRegistrationId,
  KEY_BUNDLE_TYPE,
  type KeyPair,
  proto,
  type SignalCreds,
  signedKeyPair,
  unpadRandomMax16,
  xmppPreKey,
  xmppSignedPreKey,
} from "@whiskeysockets/baileys";
import { makeLibSignalRepository } from "@whiskeysockets/baileys/lib/Signal/libsignal.js";
import { createMemoryKeyStore } from "./memory-key-store.js";
import { silentBaileysLogger } from "./silent-logger.js";

type SignalRepository = ReturnType<typeof makeLibSignalRepository>;

/**
 * One WhatsApp device the fake plays (a person's phone, or the bot account's own phone): a real
 * Signal identity with a key store, so it can hand out prekey bundles and decrypt what the bot
 * encrypts for it, exactly as the phone would.
 */
export class FakeDevice {
  readonly creds: SignalCreds;
  readonly #signal: SignalRepository;
  readonly #keys;
  #nextPreKeyId = 1;
  /** `<group>|<author>` pairs whose sender key this device received. */
  readonly #senderKeys = new Set<string>();

  constructor() {
    const signedIdentityKey = Curve.generateKeyPair();
    this.creds = {
      signedIdentityKey,
      signedPreKey: signedKeyPair(signedIdentityKey, 1),
      registrationId: generateRegistrationId(),
    };
    this.#keys = addTransactionCapability(createMemoryKeyStore(), silentBaileysLogger, {
      maxCommitRetries: 1,
      delayBetweenTriesMs: 0,
    });
    this.#signal = makeLibSignalRepository({ creds: this.creds, keys: this.#keys }, silentBaileysLogger);
  }

  /** The identity key pair (for the bot's phone, also the ADV account signature key). */
  get identityKey(): KeyPair {
    return this.creds.signedIdentityKey;
  }

  /** The `<user jid>` prekey bundle an `encrypt` key fetch returns; each fetch spends a fresh one-time prekey. */
  async bundle(jid: string): Promise<BinaryNode> {
    const preKeyId = this.#nextPreKeyId++;
    const preKey = Curve.generateKeyPair();
    await this.#keys.set({ "pre-key": { [preKeyId.toString()]: preKey } });
    return {
      tag: "user",
      attrs: { jid },
      content: [
        { tag: "registration", attrs: {}, content: encodeBigEndian(this.creds.registrationId) },
        { tag: "type", attrs: {}, content: KEY_BUNDLE_TYPE },
        { tag: "identity", attrs: {}, content: this.identityKey.public },
        xmppSignedPreKey(this.creds.signedPreKey),
        xmppPreKey(preKey, preKeyId),
      ],
    };
  }

  /** Decrypts a `pkmsg`/`msg` that `sender` (a device JID) encrypted for this device. */
  async decrypt(sender: string, type: "pkmsg" | "msg", ciphertext: Uint8Array): Promise<proto.Message> {
    const padded = await this.#signal.decryptMessage({ jid: sender, type, ciphertext });
    return proto.Message.decode(unpadRandomMax16(padded));
  }

  /** Stores the sender key `author` distributed for a group. */
  async receiveSenderKey(author: string, item: proto.Message.ISenderKeyDistributionMessage): Promise<void> {
    await this.#signal.processSenderKeyDistributionMessage({ authorJid: author, item });
    this.#senderKeys.add(`${item.groupId}|${author}`);
  }

  /** True when this device holds `author`'s sender key for `group`. */
  hasSenderKey(group: string, author: string): boolean {
    return this.#senderKeys.has(`${group}|${author}`);
  }

  /** Decrypts an `skmsg` `author` sent to `group`. */
  async decryptGroup(group: string, author: string, ciphertext: Uint8Array): Promise<proto.Message> {
    const padded = await this.#signal.decryptGroupMessage({ group, authorJid: author, msg: ciphertext });
    return proto.Message.decode(unpadRandomMax16(padded));
  }
}
