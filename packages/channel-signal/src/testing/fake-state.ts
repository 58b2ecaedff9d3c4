import { randomUUID } from "node:crypto";
import type { FakePerson } from "./fake-envelopes.js";
import { type FakeFile, FakeMediaStore } from "./fake-media.js";

/** A Signal group the fake knows: its base64 id, title and members (uuids). */
export interface FakeGroup {
  readonly id: string;
  name: string | null;
  members: string[];
  admins: string[];
  revision: number;
}

/** A message as the fake keeps it; `to` is a person's uuid (direct) or a group id. */
export interface FakeMessage {
  readonly timestamp: number;
  readonly author: string;
  readonly to: string;
  readonly text: string;
  readonly mentions: readonly string[];
  readonly textStyles: readonly string[];
  readonly quote?: { readonly timestamp: number; readonly author: string };
  /** Its files, in order, as they arrived (the bot's: decoded from its `data:` URIs). */
  readonly attachments?: readonly FakeFile[];
}

/**
 * The state of the fake Signal world and the only code that changes it: people, groups, the
 * messages sent (with their files), and one reaction slot per person per message (keyed by target author and sent
 * timestamp, as Signal addresses messages).
 */
export class FakeSignalState {
  readonly people = new Map<string, FakePerson>();
  readonly groups = new Map<string, FakeGroup>();
  readonly messages: FakeMessage[] = [];
  /** `<targetAuthorUuid>/<timestamp>` → reactor uuid → emoji. */
  readonly reactions = new Map<string, Map<string, string>>();
  /** Where the bot shows typing (a person's uuid or a group id). */
  readonly typing = new Map<string, boolean>();
  /** The daemon's attachments directory and sticker packs. */
  readonly media = new FakeMediaStore();
  #clock = Date.now();

  constructor(readonly bot: FakePerson) {
    this.people.set(bot.uuid, bot);
  }

  /** A fresh timestamp: Signal's ids, so never the same twice. */
  now(): number {
    this.#clock = Math.max(this.#clock + 1, Date.now());
    return this.#clock;
  }

  addPerson(input: { number?: string | null; name?: string | null; uuid?: string }): FakePerson {
    const person = { uuid: input.uuid ?? randomUUID(), number: input.number ?? null, name: input.name ?? null };
    this.people.set(person.uuid, person);
    return person;
  }

  addGroup(input: { name?: string | null; members: FakePerson[]; id?: string }): FakeGroup {
    const id =
      input.id ??
      Buffer.from(randomUUID().replace(/-/g, "") + randomUUID().replace(/-/g, "").slice(0, 32), "hex").toString(
        "base64",
      );
    const group = {
      id,
      name: input.name ?? null,
      members: [this.bot.uuid, ...input.members.map((m) => m.uuid)],
      admins: [this.bot.uuid],
      revision: 1,
    };
    this.groups.set(id, group);
    return group;
  }

  /** The person a recipient string names: a uuid or a number (what signal-cli accepts). */
  person(recipient: string): FakePerson | undefined {
    const byUuid = this.people.get(recipient);
    if (byUuid) return byUuid;
    for (const person of this.people.values()) if (person.number === recipient) return person;
    return undefined;
  }

  record(message: FakeMessage): FakeMessage {
    this.messages.push(message);
    return message;
  }

  /** Sets (or with `remove`, takes back) `reactor`'s one reaction on a message; false when nothing changed. */
  react(reactor: string, targetAuthor: string, timestamp: number, emoji: string, remove: boolean): boolean {
    const key = `${targetAuthor}/${timestamp}`;
    const slots = this.reactions.get(key) ?? new Map<string, string>();
    this.reactions.set(key, slots);
    if (!remove) {
      const changed = slots.get(reactor) !== emoji;
      slots.set(reactor, emoji);
      return changed;
    }
    // Signal takes a reaction back only when it names the emoji the slot holds.
    if (slots.get(reactor) !== emoji) return false;
    slots.delete(reactor);
    return true;
  }

  /** `reactor`'s reaction on the message of `targetAuthor` sent at `timestamp` (empty or one emoji). */
  reactionsBy(reactor: string, targetAuthor: string, timestamp: number): string[] {
    const emoji = this.reactions.get(`${targetAuthor}/${timestamp}`)?.get(reactor);
    return emoji === undefined ? [] : [emoji];
  }

  messagesTo(to: string): FakeMessage[] {
    return this.messages.filter((m) => m.to === to);
  }
}
