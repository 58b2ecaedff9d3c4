import { randomBytes } from "node:crypto";
import { type BinaryNode, type proto, S_WHATSAPP_NET } from "@whiskeysockets/baileys";
import { issueDeviceIdentity, pairSuccessIdentity, verifyDeviceSignature } from "./adv.js";
import type { FakeConnection } from "./connection.js";
import { type FakeContext, reportProblem } from "./context.js";
import type { Member } from "./directory.js";
import { fakeInputError, fakeProtocolError } from "./errors.js";
import { bytesOf, child } from "./nodes.js";
import { ServerRequests } from "./server-requests.js";

/** How many QR refs WhatsApp hands a registering client (Baileys shows one after the other). */
const QR_REFS = 6;

/** A client that connected without an account and waits to be linked. */
export interface Registration {
  connection: FakeConnection;
  noiseKey: Uint8Array;
  identityKey: Uint8Array;
  refs: string[];
}

/**
 * Linking a new companion to the bot's account, the way the phone does it: QR refs for a
 * registering client, then (once the QR is "scanned") pair-success with an ADV identity signed by
 * the phone and HMACed with the client's ADV secret, and a stream error 515 asking it to reconnect.
 */
export class Linking {
  readonly #registrations = new Map<FakeConnection, Registration>();
  readonly requests = new ServerRequests();

  constructor(private readonly ctx: FakeContext) {}

  /** A client sent registration data instead of a login: offer it QR refs. */
  register(connection: FakeConnection, noiseKey: Uint8Array, payload: proto.ClientPayload): void {
    const identityKey = payload.devicePairingData?.eIdent;
    if (!identityKey) throw fakeProtocolError("registration payload without an identity key");
    const refs = Array.from({ length: QR_REFS }, () => `2@${randomBytes(24).toString("base64")}`);
    this.#registrations.set(connection, { connection, noiseKey, identityKey, refs });
    const pairDevice: BinaryNode = {
      tag: "iq",
      attrs: { from: S_WHATSAPP_NET, type: "set", id: ServerRequests.id(), xmlns: "md" },
      content: [
        {
          tag: "pair-device",
          attrs: {},
          content: refs.map((ref) => ({ tag: "ref", attrs: {}, content: Buffer.from(ref) })),
        },
      ],
    };
    this.requests.ask(connection, pairDevice).catch((error: unknown) => {
      if (connection.open) reportProblem(this.ctx, "the client did not accept the pair-device refs", error);
    });
  }

  /** The registration a connection is in, if any. */
  registration(connection: FakeConnection): Registration | undefined {
    return this.#registrations.get(connection);
  }

  /** The phone scans a QR code Baileys showed: links the device, as WhatsApp does. */
  async scanQr(qr: string): Promise<void> {
    const [ref, noiseB64, identityB64, advB64] = (qr.split("#")[1] ?? "").split(",");
    if (!ref || !noiseB64 || !identityB64 || !advB64) throw fakeInputError(`"${qr}" is not a WhatsApp pairing QR`);
    const registration = [...this.#registrations.values()].find((candidate) => candidate.refs.includes(ref));
    if (!registration?.connection.open) throw fakeInputError(`no connected client shows QR ref ${ref}`);
    if (!Buffer.from(registration.noiseKey).equals(Buffer.from(noiseB64, "base64"))) {
      throw fakeInputError("the QR's noise key is not the one the client connected with");
    }
    if (!Buffer.from(registration.identityKey).equals(Buffer.from(identityB64, "base64"))) {
      throw fakeInputError("the QR's identity key is not the one the client registered");
    }
    await this.pair(registration, Buffer.from(advB64, "base64"));
  }

  /**
   * Sends pair-success, waits for the client's signature over its new identity, then asks it to
   * restart (stream error 515). The device is linked from then on.
   */
  async pair(registration: Registration, advSecretKey: Uint8Array): Promise<void> {
    const { connection } = registration;
    const { bot } = this.ctx.directory;
    const companion = this.ctx.companions.link(registration.noiseKey, registration.identityKey, true);
    const identity = issueDeviceIdentity(bot.phoneDevice.identityKey, registration.identityKey, companion.device);
    this.#registrations.delete(connection);
    try {
      const answer = await this.requests.ask(
        connection,
        pairSuccess(bot, companion.device, pairSuccessIdentity(identity, advSecretKey)),
      );
      const signed = bytesOf(child(child(answer, "pair-device-sign"), "device-identity"));
      if (!signed || !verifyDeviceSignature(signed, registration.identityKey, identity.accountSignatureKey)) {
        throw fakeProtocolError("the client's pair-device-sign does not carry a valid device signature");
      }
    } catch (error) {
      companion.removed = true;
      throw error;
    }
    connection.send({ tag: "stream:error", attrs: { code: "515" } });
    connection.closeSoon();
  }

  closed(connection: FakeConnection): void {
    this.#registrations.delete(connection);
    this.requests.closed(connection);
  }
}

/** The iq telling a client it is now the account's device `device`. */
function pairSuccess(bot: Member, device: number, deviceIdentity: Uint8Array): BinaryNode {
  return {
    tag: "iq",
    attrs: { from: S_WHATSAPP_NET, type: "set", id: ServerRequests.id(), xmlns: "md" },
    content: [
      {
        tag: "pair-success",
        attrs: {},
        content: [
          { tag: "device-identity", attrs: { "key-index": String(device) }, content: deviceIdentity },
          { tag: "platform", attrs: { name: "android" } },
          { tag: "device", attrs: { jid: `${bot.phone}:${device}@s.whatsapp.net`, lid: `${bot.lid}:${device}@lid` } },
        ],
      },
    ],
  };
}
