import { hkdfSync } from "node:crypto";
import {
  aesDecryptGCM,
  aesEncryptGCM,
  Curve,
  type KeyPair,
  NOISE_MODE,
  NOISE_WA_HEADER,
  proto,
  sha256,
} from "@whiskeysockets/baileys";
import { WHATSAPP_CERT_CHAIN } from "./cert-chain.js";
import { fakeProtocolError } from "./errors.js";

const EMPTY = Buffer.alloc(0);

/** AES-GCM nonce: 8 zero bytes then a 32-bit big-endian counter. */
function nonce(counter: number): Buffer {
  const iv = Buffer.alloc(12);
  iv.writeUInt32BE(counter, 8);
  return iv;
}

/** The keys of an established Noise session: one direction each, with their own counters. */
export class NoiseTransport {
  #readCounter = 0;
  #writeCounter = 0;

  constructor(
    private readonly encryptKey: Buffer,
    private readonly decryptKey: Buffer,
  ) {}

  encrypt(plaintext: Uint8Array): Buffer {
    return aesEncryptGCM(plaintext, this.encryptKey, nonce(this.#writeCounter++), EMPTY);
  }

  decrypt(ciphertext: Uint8Array): Buffer {
    return aesDecryptGCM(ciphertext, this.decryptKey, nonce(this.#readCounter++), EMPTY);
  }
}

/** What the client proved in its handshake finish. */
export interface ClientFinish {
  /** The client's long-term Noise public key (`creds.noiseKey.public`). */
  noiseKey: Buffer;
  payload: proto.ClientPayload;
  transport: NoiseTransport;
}

/**
 * The responder side of WhatsApp's Noise_XX_25519_AESGCM_SHA256 handshake: the mirror image of
 * Baileys' `makeNoiseHandler`, with the prologue being the `WA` intro header.
 */
export class NoiseServerHandshake {
  readonly #ephemeral: KeyPair = Curve.generateKeyPair();
  readonly #static: KeyPair = Curve.generateKeyPair();
  #hash: Buffer;
  #salt: Buffer;
  #key: Buffer;
  #counter = 0;

  constructor() {
    const mode = Buffer.from(NOISE_MODE);
    this.#hash = mode.byteLength === 32 ? mode : sha256(mode);
    this.#salt = this.#hash;
    this.#key = this.#hash;
    this.#mixHash(NOISE_WA_HEADER);
  }

  /** Answers the client hello with the server hello: ephemeral, encrypted static, encrypted certificates. */
  serverHello(clientHelloFrame: Uint8Array): Uint8Array {
    const clientEphemeral = proto.HandshakeMessage.decode(clientHelloFrame).clientHello?.ephemeral;
    if (clientEphemeral?.length !== 32) throw fakeProtocolError("client hello without an ephemeral key");
    this.#mixHash(clientEphemeral);
    this.#mixHash(this.#ephemeral.public);
    this.#mixKey(Curve.sharedKey(this.#ephemeral.private, clientEphemeral));
    const staticSealed = this.#encrypt(this.#static.public);
    this.#mixKey(Curve.sharedKey(this.#static.private, clientEphemeral));
    const certificates = this.#encrypt(WHATSAPP_CERT_CHAIN);
    return proto.HandshakeMessage.encode({
      serverHello: { ephemeral: this.#ephemeral.public, static: staticSealed, payload: certificates },
    }).finish();
  }

  /** Reads the client finish: its static Noise key and the login or registration payload. */
  clientFinish(clientFinishFrame: Uint8Array): ClientFinish {
    const finish = proto.HandshakeMessage.decode(clientFinishFrame).clientFinish;
    if (!finish?.static || !finish.payload) throw fakeProtocolError("client finish without static key or payload");
    const noiseKey = this.#decrypt(finish.static);
    this.#mixKey(Curve.sharedKey(this.#ephemeral.private, noiseKey));
    const payload = proto.ClientPayload.decode(this.#decrypt(finish.payload));
    const [clientWrite, clientRead] = this.#split(EMPTY);
    return { noiseKey, payload, transport: new NoiseTransport(clientRead, clientWrite) };
  }

  #mixHash(data: Uint8Array): void {
    this.#hash = sha256(Buffer.concat([this.#hash, data]));
  }

  #split(material: Uint8Array): [Buffer, Buffer] {
    const okm = Buffer.from(hkdfSync("sha256", material, this.#salt, EMPTY, 64));
    return [okm.subarray(0, 32), okm.subarray(32)];
  }

  #mixKey(material: Uint8Array): void {
    const [salt, key] = this.#split(material);
    this.#salt = salt;
    this.#key = key;
    this.#counter = 0;
  }

  #encrypt(plaintext: Uint8Array): Buffer {
    const sealed = aesEncryptGCM(plaintext, this.#key, nonce(this.#counter++), this.#hash);
    this.#mixHash(sealed);
    return sealed;
  }

  #decrypt(ciphertext: Uint8Array): Buffer {
    const opened = aesDecryptGCM(ciphertext, this.#key, nonce(this.#counter++), this.#hash);
    this.#mixHash(ciphertext);
    return opened;
  }
}
