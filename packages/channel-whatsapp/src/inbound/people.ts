import { BoundedMap } from "@chorus/channel-kit";
import {
  type Contact,
  type GroupMetadata,
  isLidUser,
  isPnUser,
  jidNormalizedUser,
  type LIDMapping,
  type WAMessage,
} from "@whiskeysockets/baileys";

/** People remembered; a gateway in many large groups forgets the least recently seen first. */
const REMEMBERED = 20_000;

/**
 * What the instance has learnt about people: the phone number behind a LID (from message keys,
 * group metadata and Baileys' own mapping) and display names (push names and contacts).
 * WhatsApp's group metadata has no names, so names come from what people sent.
 */
export class People {
  readonly #pnByLid = new BoundedMap<string, string>(REMEMBERED);
  readonly #names = new BoundedMap<string, string>(REMEMBERED);

  /** The phone-number JID behind a LID, where known. */
  pnOf(lid: string): string | undefined {
    return this.#pnByLid.get(jidNormalizedUser(lid));
  }

  /** A person's name, by phone-number JID or LID. */
  nameOf(jid: string): string | undefined {
    return this.#names.get(jidNormalizedUser(jid));
  }

  /** Records that `lid` and `pn` are the same person (either order is accepted). */
  learnMapping(mapping: LIDMapping): void {
    const [lid, pn] = isLidUser(mapping.lid) ? [mapping.lid, mapping.pn] : [mapping.pn, mapping.lid];
    if (isLidUser(lid) && isPnUser(pn)) this.#pnByLid.set(jidNormalizedUser(lid), jidNormalizedUser(pn));
  }

  /** Records a name for every JID given (a person's PN and LID). */
  learnName(jids: readonly (string | null | undefined)[], name: string | null | undefined): void {
    const clean = name?.trim();
    if (!clean) return;
    for (const jid of jids) if (jid) this.#names.set(jidNormalizedUser(jid), clean);
  }

  /** Learns from a received message: the sender's push name and the PN/LID pair in its key. */
  learnFromMessage(message: WAMessage): void {
    const key = message.key;
    if (key.fromMe) return;
    const sender = key.participant || key.remoteJid;
    const alt = key.participant ? key.participantAlt : key.remoteJidAlt;
    if (sender && alt) this.learnMapping({ lid: sender, pn: alt });
    this.learnName([sender, alt], message.pushName);
  }

  /** Learns the PN/LID pairs group metadata lists for its participants. */
  learnFromGroup(group: GroupMetadata): void {
    for (const participant of group.participants) {
      if (participant.phoneNumber) this.learnMapping({ lid: participant.id, pn: participant.phoneNumber });
      if (participant.lid) this.learnMapping({ lid: participant.lid, pn: participant.id });
      this.learnContact(participant);
    }
  }

  /** Learns from a contact entry (`contacts.upsert`, history sync): mapping and the best name. */
  learnContact(contact: Partial<Contact>): void {
    const jids = [contact.id, contact.lid, contact.phoneNumber];
    if (contact.lid && contact.phoneNumber) this.learnMapping({ lid: contact.lid, pn: contact.phoneNumber });
    if (contact.id && contact.lid && isPnUser(contact.id)) this.learnMapping({ lid: contact.lid, pn: contact.id });
    if (contact.id && contact.phoneNumber && isLidUser(contact.id)) {
      this.learnMapping({ lid: contact.id, pn: contact.phoneNumber });
    }
    this.learnName(jids, contact.name ?? contact.notify ?? contact.verifiedName);
  }
}
