import type { Participant } from "@chorus/core";
import { type GroupMetadata, isLidUser, isPnUser, jidNormalizedUser } from "@whiskeysockets/baileys";
import { type BotIdentity, e164OfJid, isBotJid } from "../jids.js";

/** What turning JIDs into participants needs to know. */
export interface PeopleLookup {
  readonly who: BotIdentity;
  /** The chat's group metadata, when it is a group and could be fetched. */
  readonly group?: GroupMetadata | undefined;
  /** The phone-number JID behind a LID, where known. */
  pnOf(lid: string): string | undefined;
  /** A person's name, by phone-number JID or LID, where known. */
  nameOf(jid: string): string | undefined;
}

/**
 * The phone-number JID of a user JID: itself for a phone-number JID, else `alt` (the key's
 * `participantAlt`/`remoteJidAlt`), the group's participant list, or the known mapping.
 */
export function phoneJidOf(jid: string, people: PeopleLookup, alt?: string | null): string | undefined {
  const normal = jidNormalizedUser(jid);
  if (isPnUser(normal)) return normal;
  if (alt && isPnUser(alt)) return jidNormalizedUser(alt);
  if (!isLidUser(normal)) return undefined;
  const listed = people.group?.participants.find((p) => p.id === normal && p.phoneNumber)?.phoneNumber;
  if (listed) return jidNormalizedUser(listed);
  return people.pnOf(normal);
}

/** The id a person is known by in events: the phone-number JID where known, else the JID as addressed. */
export function participantIdOf(jid: string, people: PeopleLookup, alt?: string | null): string {
  return phoneJidOf(jid, people, alt) ?? jidNormalizedUser(jid);
}

/** A person as an event names them: id (phone-number JID preferred), name, E.164, whether it is the bot. */
export function participantOf(
  jid: string,
  people: PeopleLookup,
  options: { alt?: string | null | undefined; pushName?: string | null | undefined } = {},
): Participant {
  const pn = phoneJidOf(jid, people, options.alt);
  const id = pn ?? jidNormalizedUser(jid);
  if (isBotJid(jid, people.who) || (pn !== undefined && isBotJid(pn, people.who))) return botParticipant(people.who);
  const name = people.nameOf(id) ?? people.nameOf(jid) ?? clean(options.pushName);
  const e164 = e164OfJid(pn);
  return { id, ...(name !== undefined ? { name } : {}), ...(e164 !== undefined ? { e164 } : {}) };
}

/** The linked account as a participant (its owner writing from the phone is this person too). */
export function botParticipant(who: BotIdentity): Participant {
  return { id: who.pn, ...(who.name !== undefined ? { name: who.name } : {}), e164: who.e164 };
}

/** The members of a group as its metadata lists them, with names and numbers; the linked account is marked `isBot`. */
export function membersOf(people: PeopleLookup): Participant[] | undefined {
  return people.group?.participants.map((member) => {
    const participant = participantOf(member.id, people, {
      alt: member.phoneNumber ?? null,
      pushName: member.notify ?? member.name ?? null,
    });
    return participant.id === people.who.pn ? { ...participant, isBot: true } : participant;
  });
}

function clean(name: string | null | undefined): string | undefined {
  const trimmed = name?.trim();
  return trimmed ? trimmed : undefined;
}
