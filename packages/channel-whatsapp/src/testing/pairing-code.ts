import { hkdfSync, randomBytes } from "node:crypto";
import {
  aesDecryptCTR,
  aesDecryptGCM,
  aesEncryptCTR,
  type BinaryNode,
  Curve,
  derivePairingCodeKey,
  jidDecode,
  S_WHATSAPP_NET,
} from "@whiskeysockets/baileys";
import type { FakeConnection } from "./connection.js";
import type { FakeContext } from "./context.js";
import { fakeInputError, fakeProtocolError } from "./errors.js";
import type { Linking } from "./linking.js";
import { bytesOf, child, iqResult, textOf, unixSeconds } from "./nodes.js";
import { ServerRequests } from "./server-requests.js";

/** A client asked to link by pairing code (`requestPairingCode`). */
export interface PairingCodeRequest {
  /** The phone number the client wants to link to (digits). */
  phone: string;
  /** What the client calls itself, e.g. `Chrome (Mac OS)`. */
  display: string;
  /** Milliseconds since the epoch. */
  at: number;
  /** Set once `enterPairingCode` linked the client. */
  linked: boolean;
}

interface PendingRequest extends PairingCodeRequest {
  connection: FakeConnection;
  ref: string;
  /** salt(32) ‖ iv(16) ‖ AES-CTR(companion ephemeral public key) under a key derived from the code. */
  wrappedEphemeral: Buffer;
}

const EMPTY = Buffer.alloc(0);

function hkdf(material: Uint8Array, length: number, info: string, salt: Uint8Array = EMPTY): Buffer {
  return Buffer.from(hkdfSync("sha256", material, salt, Buffer.from(info), length));
}

/** Wraps or unwraps an ephemeral key the way both sides of code pairing do: AES-CTR under PBKDF2(code). */
async function wrapKey(code: string, key: Uint8Array): Promise<Buffer> {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  return Buffer.concat([salt, iv, aesEncryptCTR(key, await derivePairingCodeKey(code, salt), iv)]);
}

async function unwrapKey(code: string, wrapped: Buffer): Promise<Buffer> {
  const key = await derivePairingCodeKey(code, wrapped.subarray(0, 32));
  return aesDecryptCTR(wrapped.subarray(48, 80), key, wrapped.subarray(32, 48));
}

/**
 * Linking by pairing code: the client announces itself (`companion_hello`), the person types the
 * code on their phone (`enterPairingCode`), the phone and the client exchange wrapped ephemeral
 * keys, derive the ADV secret, and the link finishes like a QR scan.
 */
export class PairingCodes {
  readonly #requests: PendingRequest[] = [];
  readonly #finishes = new Map<FakeConnection, { resolve: (iq: BinaryNode) => void; reject: (error: Error) => void }>();

  constructor(
    private readonly ctx: FakeContext,
    private readonly linking: Linking,
  ) {}

  requests(): PairingCodeRequest[] {
    return this.#requests.map(({ phone, display, at, linked }) => ({ phone, display, at, linked }));
  }

  /** `link_code_companion_reg` iqs: the client's hello (answered with a ref) or its finish. */
  handle(connection: FakeConnection, iq: BinaryNode): BinaryNode {
    const reg = child(iq, "link_code_companion_reg");
    if (reg?.attrs.stage === "companion_finish") {
      const waiter = this.#finishes.get(connection);
      if (!waiter) throw fakeProtocolError("companion_finish without a pairing in progress");
      waiter.resolve(iq);
      return iqResult(iq);
    }
    const wrapped = bytesOf(child(reg, "link_code_pairing_wrapped_companion_ephemeral_pub"));
    if (wrapped?.length !== 80) throw fakeProtocolError("companion_hello without a wrapped ephemeral key");
    const ref = randomBytes(16).toString("hex");
    this.#requests.push({
      phone: jidDecode(reg?.attrs.jid ?? "")?.user ?? "",
      display: textOf(child(reg, "companion_platform_display")) ?? "",
      at: Date.now(),
      linked: false,
      connection,
      ref,
      wrappedEphemeral: wrapped,
    });
    return iqResult(iq, [
      {
        tag: "link_code_companion_reg",
        attrs: {},
        content: [{ tag: "link_code_pairing_ref", attrs: {}, content: Buffer.from(ref) }],
      },
    ]);
  }

  /** The person types `code` on the bot account's phone: finishes the newest code request. */
  async enter(code: string): Promise<void> {
    const request = this.#requests.findLast((candidate) => !candidate.linked);
    if (!request?.connection.open) throw fakeInputError("no connected client asked for a pairing code");
    const registration = this.linking.registration(request.connection);
    if (!registration) throw fakeInputError("the client that asked for the code is no longer waiting to link");
    const phone = this.ctx.directory.bot.phoneDevice.identityKey;
    const companionEphemeral = await unwrapKey(code, request.wrappedEphemeral);
    const primaryEphemeral = Curve.generateKeyPair();
    const finished = new Promise<BinaryNode>((resolve, reject) =>
      this.#finishes.set(request.connection, { resolve, reject }),
    );
    request.connection.send(primaryHello(request.ref, phone.public, await wrapKey(code, primaryEphemeral.public)));
    const finish = child(await finished, "link_code_companion_reg");
    this.#finishes.delete(request.connection);
    const shared = Curve.sharedKey(primaryEphemeral.private, companionEphemeral);
    const { companionIdentity, random } = openKeyBundle(finish, shared, phone.public, code);
    const identityShared = Curve.sharedKey(phone.private, companionIdentity);
    const advSecret = hkdf(Buffer.concat([shared, identityShared, random]), 32, "adv_secret");
    request.linked = true;
    await this.linking.pair(registration, advSecret);
  }

  closed(connection: FakeConnection): void {
    this.#finishes.get(connection)?.reject(fakeProtocolError("the client disconnected during code pairing"));
    this.#finishes.delete(connection);
  }
}

/** The phone's answer to a typed code: its identity key and its ephemeral key wrapped with the code. */
function primaryHello(ref: string, identityKey: Uint8Array, wrappedEphemeral: Uint8Array): BinaryNode {
  return {
    tag: "notification",
    attrs: { from: S_WHATSAPP_NET, id: ServerRequests.id(), t: unixSeconds(), type: "link_code_companion_reg" },
    content: [
      {
        tag: "link_code_companion_reg",
        attrs: { stage: "primary_hello" },
        content: [
          { tag: "link_code_pairing_ref", attrs: {}, content: Buffer.from(ref) },
          { tag: "primary_identity_pub", attrs: {}, content: identityKey },
          { tag: "link_code_pairing_wrapped_primary_ephemeral_pub", attrs: {}, content: wrappedEphemeral },
        ],
      },
    ],
  };
}

/**
 * Opens the client's key bundle: salt(32) ‖ iv(12) ‖ AES-GCM(companion identity ‖ phone identity ‖
 * random). It only opens when both sides derived the same shared key, i.e. the code was right.
 */
function openKeyBundle(
  finish: BinaryNode | undefined,
  shared: Uint8Array,
  phoneIdentityKey: Uint8Array,
  code: string,
): { companionIdentity: Buffer; random: Buffer } {
  const bundle = bytesOf(child(finish, "link_code_pairing_wrapped_key_bundle"));
  if (!bundle) throw fakeProtocolError("companion_finish without a key bundle");
  const key = hkdf(shared, 32, "link_code_pairing_key_bundle_encryption_key", bundle.subarray(0, 32));
  let plain: Buffer;
  try {
    plain = aesDecryptGCM(bundle.subarray(44), key, bundle.subarray(32, 44), EMPTY);
  } catch (error) {
    throw fakeInputError(`pairing code ${code} is not the one the client showed`, { cause: String(error) });
  }
  if (!plain.subarray(32, 64).equals(Buffer.from(phoneIdentityKey))) {
    throw fakeProtocolError("the client's key bundle names another phone identity");
  }
  return { companionIdentity: plain.subarray(0, 32), random: plain.subarray(64, 96) };
}
