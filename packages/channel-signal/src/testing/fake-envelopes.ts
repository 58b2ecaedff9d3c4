/**
 * Envelopes as signal-cli writes them (its `Json*` records serialised by Jackson): plain fields
 * are always there (`null` when unknown), the ones marked `NON_NULL` only when set, timestamps
 * are numbers, and a mention is U+FFFC in the body with `start`/`length` in UTF-16 units.
 */

/** Someone on Signal: the uuid (ACI) is always known, the number only when they share it. */
export interface FakePerson {
  readonly uuid: string;
  readonly number: string | null;
  readonly name: string | null;
}

/** `JsonMention` of a person at `start` (one placeholder long). */
export function jsonMention(person: FakePerson, start: number) {
  return { name: person.number ?? person.uuid, number: person.number, uuid: person.uuid, start, length: 1 };
}

/** What goes into a `JsonDataMessage` (the optional parts only when given). */
export interface DataParts {
  timestamp: number;
  text: string | null;
  mentions?: ReturnType<typeof jsonMention>[];
  quote?: { id: number; author: FakePerson; text: string | null };
  reaction?: { emoji: string; targetAuthor: FakePerson; targetSentTimestamp: number; isRemove: boolean };
  group?: { id: string; name: string | null; revision: number; update?: boolean };
  attachments?: { contentType: string; filename: string | null; id: string; size: number; isVoiceNote?: boolean }[];
  sticker?: { packId: string; stickerId: number };
}

/** `JsonDataMessage`, fields in the record's order. */
export function jsonDataMessage(parts: DataParts): Record<string, unknown> {
  const { quote, reaction, group } = parts;
  return {
    timestamp: parts.timestamp,
    message: parts.text,
    expiresInSeconds: 0,
    isExpirationUpdate: false,
    viewOnce: false,
    ...(reaction && {
      reaction: {
        emoji: reaction.emoji,
        targetAuthor: legacyId(reaction.targetAuthor),
        targetAuthorNumber: reaction.targetAuthor.number,
        targetAuthorUuid: reaction.targetAuthor.uuid,
        targetSentTimestamp: reaction.targetSentTimestamp,
        isRemove: reaction.isRemove,
      },
    }),
    ...(quote && {
      quote: {
        id: quote.id,
        author: legacyId(quote.author),
        authorNumber: quote.author.number,
        authorUuid: quote.author.uuid,
        text: quote.text,
        attachments: [],
      },
    }),
    ...(parts.mentions?.length && { mentions: parts.mentions }),
    // `JsonAttachment`: every field written, null when unknown; `isVoiceNote` last, only where the daemon writes it.
    ...(parts.attachments?.length && {
      attachments: parts.attachments.map(({ isVoiceNote, ...a }) => ({
        ...a,
        width: null,
        height: null,
        caption: null,
        uploadTimestamp: parts.timestamp,
        ...(isVoiceNote !== undefined && { isVoiceNote }),
      })),
    }),
    ...(parts.sticker && { sticker: parts.sticker }),
    ...(group && {
      groupInfo: {
        groupId: group.id,
        groupName: group.name,
        revision: group.revision,
        type: group.update ? "UPDATE" : "DELIVER",
      },
    }),
  };
}

/** `JsonMessageEnvelope` from `source` with one message kind (`dataMessage`, `syncMessage`, …). */
export function jsonEnvelope(source: FakePerson, timestamp: number, device: number, kind: Record<string, unknown>) {
  return {
    source: legacyId(source),
    sourceNumber: source.number,
    sourceUuid: source.uuid,
    sourceName: source.name,
    sourceDevice: device,
    timestamp,
    serverReceivedTimestamp: timestamp + 37,
    serverDeliveredTimestamp: timestamp + 41,
    ...kind,
  };
}

/** `JsonSyncDataMessage`: the destination, then the data message's fields unwrapped. */
export function jsonSentMessage(destination: FakePerson | undefined, parts: DataParts): Record<string, unknown> {
  return {
    destination: destination ? legacyId(destination) : null,
    destinationNumber: destination?.number ?? null,
    destinationUuid: destination?.uuid ?? null,
    ...jsonDataMessage(parts),
  };
}

/** `JsonTypingMessage`. */
export const jsonTyping = (timestamp: number, groupId?: string) => ({
  action: "STARTED",
  timestamp,
  ...(groupId && { groupId }),
});

/** `JsonReceiptMessage` of a delivery receipt. */
export const jsonReceipt = (when: number, timestamps: number[]) => ({
  when,
  isDelivery: true,
  isRead: false,
  isViewed: false,
  timestamps,
});

/** `RecipientAddress.getLegacyIdentifier()`: the number when known, else the uuid. */
const legacyId = (person: FakePerson) => person.number ?? person.uuid;
