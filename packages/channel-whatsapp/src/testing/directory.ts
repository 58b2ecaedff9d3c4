import { isJidGroup, isLidUser, jidDecode } from "@whiskeysockets/baileys";
import { fakeInputError } from "./errors.js";
import { FakeDevice } from "./fake-device.js";

/** How WhatsApp addresses someone in stanzas: by phone-number JID or by LID. */
export type Addressing = "pn" | "lid";

/** Someone on the fake WhatsApp: a person, or the bot's own account. */
export interface FakePerson {
  /** Digits only, e.g. `15550002222`. */
  readonly phone: string;
  readonly name: string;
  /** The LID user part (digits). */
  readonly lid: string;
  /** `<phone>@s.whatsapp.net`. */
  readonly jid: string;
  /** `<lid>@lid`. */
  readonly lidJid: string;
}

/** A person (or the bot account) as the fake keeps them: with their phone's Signal device. */
export interface Member extends FakePerson {
  readonly isBot: boolean;
  /** How their direct messages reach the bot. */
  readonly addressing: Addressing;
  /** Their phone (device 0). */
  readonly phoneDevice: FakeDevice;
}

/** A group chat on the fake. */
export interface FakeGroup {
  /** `<digits>@g.us`. */
  readonly id: string;
  subject: string;
  /** Creation time, seconds. */
  readonly creation: number;
  /** Phone of the creator. */
  readonly creator: string;
  /** Phones of the members, the bot included. */
  readonly participants: string[];
  /** Phones of the admins. */
  readonly admins: string[];
  /** `lid` groups address members by LID on the wire (WhatsApp's default for new groups). */
  readonly addressingMode: Addressing;
}

export interface PersonInput {
  phone: string;
  name: string;
  lid?: string;
  /** How this person's direct messages are addressed; default `pn` (with the LID as the alternate). */
  addressing?: Addressing;
}

export interface GroupInput {
  id?: string;
  subject: string;
  /** Phones of the members; the bot is added automatically. */
  participants: string[];
  admins?: string[];
  /** Default `lid`. */
  addressingMode?: Addressing;
  /** Phone of the creator; default the first admin, else the bot. */
  creator?: string;
}

/** Accepts `15550002222`, `+1 555 000 2222` or a JID and returns the digits. */
export function phoneDigits(input: string): string {
  const user = input.includes("@") ? (jidDecode(input)?.user ?? "") : input.replace(/[\s+()-]/g, "");
  if (!/^\d{5,16}$/.test(user)) throw fakeInputError(`"${input}" is not a phone number (digits, optionally with +)`);
  return user;
}

/** Who exists on the fake WhatsApp: the bot account, people and groups, and how to find them by any JID. */
export class Directory {
  readonly bot: Member;
  readonly #byPhone = new Map<string, Member>();
  readonly #byLid = new Map<string, Member>();
  readonly groups = new Map<string, FakeGroup>();
  #nextLid = 100_200_300_400_500;
  #nextGroup = 120_363_000_000_000_000n;

  constructor(bot: { phone: string; name: string; lid?: string }) {
    this.bot = this.#register({ phone: bot.phone, name: bot.name, ...(bot.lid ? { lid: bot.lid } : {}) }, true);
  }

  addPerson(input: PersonInput): Member {
    const phone = phoneDigits(input.phone);
    if (this.#byPhone.has(phone)) throw fakeInputError(`a person with phone ${phone} already exists`);
    return this.#register(input, false);
  }

  addGroup(input: GroupInput): FakeGroup {
    const id = input.id ?? `${this.#nextGroup++}@g.us`;
    if (!isJidGroup(id)) throw fakeInputError(`group id "${id}" must end with @g.us`);
    if (this.groups.has(id)) throw fakeInputError(`group ${id} already exists`);
    const participants = [...new Set([...input.participants.map(phoneDigits), this.bot.phone])];
    for (const phone of participants) this.memberByPhone(phone);
    const admins = (input.admins ?? []).map(phoneDigits);
    for (const admin of admins) {
      if (!participants.includes(admin)) throw fakeInputError(`admin ${admin} is not a participant of ${id}`);
    }
    const creator = input.creator ? phoneDigits(input.creator) : (admins[0] ?? this.bot.phone);
    if (!participants.includes(creator)) throw fakeInputError(`creator ${creator} is not a participant of ${id}`);
    const group: FakeGroup = {
      id,
      subject: input.subject,
      creation: Math.floor(Date.now() / 1000),
      creator,
      participants,
      admins,
      addressingMode: input.addressingMode ?? "lid",
    };
    this.groups.set(id, group);
    return group;
  }

  /** The member with this phone; throws for an unknown one. */
  memberByPhone(phoneOrJid: string): Member {
    const phone = phoneDigits(phoneOrJid);
    const member = this.#byPhone.get(phone);
    if (!member) throw fakeInputError(`no person with phone ${phone}; add them with addPerson first`);
    return member;
  }

  /** The member a user JID (PN or LID, any device) belongs to. */
  memberByJid(jid: string): Member | undefined {
    const decoded = jidDecode(jid);
    if (!decoded?.user) return undefined;
    if (decoded.server === "lid") return this.#byLid.get(decoded.user);
    if (decoded.server === "s.whatsapp.net" || decoded.server === "c.us") return this.#byPhone.get(decoded.user);
    return undefined;
  }

  /** The fake device a device JID names: device 0 (the phone) of a person or of the bot's account. */
  deviceFor(jid: string): FakeDevice | undefined {
    const device = jidDecode(jid)?.device ?? 0;
    return device === 0 ? this.memberByJid(jid)?.phoneDevice : undefined;
  }

  group(jid: string): FakeGroup {
    const group = this.groups.get(jid);
    if (!group) throw fakeInputError(`no group ${jid}; add it with addGroup first`);
    return group;
  }

  /**
   * The chat a JID names, the way the fake files messages: a group JID, or the member's phone
   * JID (whichever JID of theirs was used); unknown users keep their JID without device.
   */
  chatOf(jid: string): string {
    if (isJidGroup(jid)) return jid;
    const member = this.memberByJid(jid);
    if (member) return member.jid;
    const decoded = jidDecode(jid);
    return decoded ? `${decoded.user}@${decoded.server}` : jid;
  }

  /** A chat given as a group JID, a user JID or a phone number. */
  resolveChat(chat: string): string {
    if (chat.includes("@")) return this.chatOf(chat);
    return this.memberByPhone(chat).jid;
  }

  /** The phone-number JID of whoever a user JID names (unknown LIDs stay as they are). */
  userJid(jid: string): string {
    return this.memberByJid(jid)?.jid ?? this.chatOf(jid);
  }

  /** True for a JID of the bot's account, PN or LID, any device. */
  isBot(jid: string | undefined): boolean {
    return jid !== undefined && this.memberByJid(jid) === this.bot;
  }

  /** The JID a member appears under in a chat with this addressing. */
  addressOf(member: Member, addressing: Addressing): string {
    return addressing === "lid" ? member.lidJid : member.jid;
  }

  #register(input: PersonInput, isBot: boolean): Member {
    const phone = phoneDigits(input.phone);
    const lid = input.lid ? lidDigits(input.lid) : String(this.#nextLid++);
    if (this.#byLid.has(lid)) throw fakeInputError(`LID ${lid} is already taken`);
    const member: Member = {
      phone,
      name: input.name,
      lid,
      jid: `${phone}@s.whatsapp.net`,
      lidJid: `${lid}@lid`,
      isBot,
      addressing: input.addressing ?? "pn",
      phoneDevice: new FakeDevice(),
    };
    this.#byPhone.set(phone, member);
    this.#byLid.set(lid, member);
    return member;
  }
}

function lidDigits(input: string): string {
  const user = isLidUser(input) ? (jidDecode(input)?.user ?? "") : input;
  if (!/^\d{5,20}$/.test(user)) throw fakeInputError(`"${input}" is not a LID (digits, optionally with @lid)`);
  return user;
}
