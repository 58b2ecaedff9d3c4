import {
  type DataParts,
  type FakePerson,
  jsonDataMessage,
  jsonEnvelope,
  jsonMention,
  jsonReceipt,
  jsonSentMessage,
  jsonTyping,
} from "./fake-envelopes.js";
import type { FakeGroup, FakeSignalState } from "./fake-state.js";

/** A message someone writes; U+FFFC in `text` marks each of `mentions`, in order. */
export interface PersonMessage {
  from: FakePerson;
  /** A group; a direct message to the bot when absent. */
  group?: FakeGroup;
  text: string | null;
  mentions?: FakePerson[];
  /** The message this one replies to: its author and sent timestamp. */
  quote?: { author: FakePerson; timestamp: number; text?: string | null };
  /** Attachments as written, their files not kept (use `files` for files the daemon can serve). */
  attachments?: DataParts["attachments"];
  /** Files sent with it: stored in the daemon's attachments directory before the envelope is written. */
  files?: { bytes: Uint8Array; contentType: string; filename?: string | null; voiceNote?: boolean }[];
}

/** A delivered envelope: its timestamp is the message's id. */
export interface Delivered {
  readonly timestamp: number;
  readonly envelope: Record<string, unknown>;
}

const PLACEHOLDER = "\uFFFC";

/**
 * What people do on Signal, delivered to the bot's event stream as signal-cli writes it: messages,
 * reactions, the owner writing from the phone (`syncMessage.sentMessage`), typing and receipts.
 * Also what `listContacts` and `listGroups` answer about them.
 */
export class PeopleActions {
  #last: string | undefined;

  constructor(
    private readonly state: FakeSignalState,
    private readonly send: (data: string) => void,
    private readonly account: () => string,
    /** Whether attachments carry `isVoiceNote` (signal-cli after 0.14.6). */
    private readonly voiceNoteFlag = false,
  ) {}

  /** Someone writes (text, files or both); resolves with the envelope once it is on its way to the bot. */
  sends(message: PersonMessage): Delivered {
    const timestamp = this.state.now();
    const stored = (message.files ?? []).map((file) => this.state.media.store(file));
    const files = stored.map((file) => ({
      contentType: file.contentType,
      filename: file.filename,
      id: file.id,
      size: file.bytes.byteLength,
      ...(this.voiceNoteFlag && { isVoiceNote: file.voiceNote }),
    }));
    const attachments = [...(message.attachments ?? []), ...files];
    const parts = this.#parts(timestamp, { ...message, ...(attachments.length > 0 && { attachments }) });
    this.state.record({
      timestamp,
      author: message.from.uuid,
      to: message.group?.id ?? this.state.bot.uuid,
      text: message.text ?? "",
      mentions: (parts.mentions ?? []).map((m) => `${m.start}:${m.length}:${m.uuid}`),
      textStyles: [],
      ...(message.quote && { quote: { timestamp: message.quote.timestamp, author: message.quote.author.uuid } }),
      ...(stored.length > 0 && { attachments: stored }),
    });
    return this.#deliver(timestamp, jsonEnvelope(message.from, timestamp, 1, { dataMessage: jsonDataMessage(parts) }));
  }

  /**
   * Someone sends a sticker (`dataMessage.sticker`: pack and number, no text). `fetched: false`:
   * the daemon has not fetched its pack yet, as right after it arrived.
   */
  sendsSticker(input: { from: FakePerson; group?: FakeGroup; bytes: Uint8Array; fetched?: boolean }): Delivered {
    const timestamp = this.state.now();
    const sticker = this.state.media.addSticker(input.bytes, input.fetched !== false);
    const parts: DataParts = {
      timestamp,
      text: null,
      sticker,
      ...(input.group && { group: { id: input.group.id, name: input.group.name, revision: input.group.revision } }),
    };
    return this.#deliver(timestamp, jsonEnvelope(input.from, timestamp, 1, { dataMessage: jsonDataMessage(parts) }));
  }

  /** Someone sets (or takes back) their one reaction on a message. */
  reacts(input: {
    from: FakePerson;
    target: { author: FakePerson; timestamp: number };
    emoji: string;
    group?: FakeGroup;
    remove?: boolean;
  }): Delivered {
    const { from, target, emoji, group } = input;
    this.state.react(from.uuid, target.author.uuid, target.timestamp, emoji, input.remove === true);
    const timestamp = this.state.now();
    const parts: DataParts = {
      timestamp,
      text: null,
      reaction: {
        emoji,
        targetAuthor: target.author,
        targetSentTimestamp: target.timestamp,
        isRemove: input.remove === true,
      },
      ...(group && { group: { id: group.id, name: group.name, revision: group.revision } }),
    };
    return this.#deliver(timestamp, jsonEnvelope(from, timestamp, 1, { dataMessage: jsonDataMessage(parts) }));
  }

  /** The owner writes on the phone the bot's number lives on: into a group, to themselves, or to someone. */
  ownerSends(input: { group?: FakeGroup; to?: FakePerson; text: string; mentions?: FakePerson[] }): Delivered {
    const timestamp = this.state.now();
    const bot = this.state.bot;
    const parts = this.#parts(timestamp, { ...input, from: bot });
    const destination = input.group ? undefined : (input.to ?? bot);
    const sync = { syncMessage: { sentMessage: jsonSentMessage(destination, parts) } };
    return this.#deliver(timestamp, jsonEnvelope(bot, timestamp, 1, sync));
  }

  /** Someone starts typing, or their phone confirms delivery: envelopes the bot must ignore. */
  typesAndConfirms(from: FakePerson, group?: FakeGroup): void {
    const at = this.state.now();
    this.#deliver(at, jsonEnvelope(from, at, 1, { typingMessage: jsonTyping(at, group?.id) }));
    this.#deliver(at + 1, jsonEnvelope(from, at + 1, 1, { receiptMessage: jsonReceipt(at + 1, [at - 1]) }));
  }

  /** The last event again, byte for byte: the same author and timestamp. */
  redeliverLast(): void {
    if (this.#last === undefined) throw new Error("fake signal-cli: nothing was delivered yet");
    this.send(this.#last);
  }

  /** A `receive` event whose envelope is not what signal-cli writes (a string timestamp, no source). */
  deliverUnparseable(): void {
    this.send(
      JSON.stringify({ account: this.account(), envelope: { timestamp: "soon", dataMessage: { message: 42 } } }),
    );
  }

  /** `listContacts` (`JsonContact`, trimmed to the fields that matter, nulls where unknown). */
  contacts(params: Record<string, unknown>): unknown[] {
    const wanted = [params.recipient ?? []].flat().map(String);
    const people = [...this.state.people.values()].filter(
      (p) => wanted.length === 0 || wanted.includes(p.uuid) || (p.number !== null && wanted.includes(p.number)),
    );
    return people.map((p) => ({
      number: p.number,
      uuid: p.uuid,
      username: null,
      name: null,
      givenName: null,
      familyName: null,
      isBlocked: false,
      messageExpirationTime: 0,
      profile: { lastUpdateTimestamp: 0, givenName: p.name, familyName: null, about: null, aboutEmoji: null },
    }));
  }

  /** `listGroups` (`JsonGroup`): members with number and uuid, no names. */
  groups(params: Record<string, unknown>): unknown[] {
    const wanted = [params.groupId ?? []].flat().map(String);
    return [...this.state.groups.values()]
      .filter((g) => wanted.length === 0 || wanted.includes(g.id))
      .map((g) => {
        const member = (uuid: string) => ({ number: this.state.people.get(uuid)?.number ?? null, uuid });
        return {
          id: g.id,
          name: g.name,
          description: null,
          isMember: g.members.includes(this.state.bot.uuid),
          isBlocked: false,
          messageExpirationTime: 0,
          members: g.members.map((uuid) => ({ ...member(uuid), isAdmin: g.admins.includes(uuid) })),
          pendingMembers: [],
          requestingMembers: [],
          admins: g.admins.map(member),
          banned: [],
          permissionAddMember: "EVERY_MEMBER",
          permissionEditDetails: "EVERY_MEMBER",
          permissionSendMessage: "EVERY_MEMBER",
          groupInviteLink: null,
        };
      });
  }

  #parts(timestamp: number, message: PersonMessage): DataParts {
    const mentions: ReturnType<typeof jsonMention>[] = [];
    const text = message.text;
    let at = text?.indexOf(PLACEHOLDER) ?? -1;
    for (const person of message.mentions ?? []) {
      if (at < 0 || text === null) throw new Error("fake signal-cli: a mention needs a U+FFFC in the text");
      mentions.push(jsonMention(person, at));
      at = text.indexOf(PLACEHOLDER, at + 1);
    }
    const { quote, group } = message;
    return {
      timestamp,
      text,
      ...(mentions.length > 0 && { mentions }),
      ...(quote && { quote: { id: quote.timestamp, author: quote.author, text: quote.text ?? null } }),
      ...(group && { group: { id: group.id, name: group.name, revision: group.revision } }),
      ...(message.attachments && { attachments: message.attachments }),
    };
  }

  #deliver(timestamp: number, envelope: Record<string, unknown>): Delivered {
    const data = JSON.stringify({ envelope, account: this.account() });
    this.#last = data;
    this.send(data);
    return { timestamp, envelope };
  }
}
