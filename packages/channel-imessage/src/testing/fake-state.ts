/** A chat in the fake server. */
export interface FakeChat {
  guid: string;
  displayName: string;
  /** Handles (E.164 or e-mail) of everyone but the server's own account. */
  participants: string[];
}

/** A message row; tapbacks are rows too, pointing at their target. */
export interface FakeMessage {
  /** chat.db's ROWID (`originalROWID`). */
  rowId: number;
  guid: string;
  chatGuid: string;
  /** What the server reports as `text` (`universalText`): tapback rows carry `Loved “…”`. */
  text: string;
  /** The sender's handle; undefined when `isFromMe`. */
  handle?: string;
  isFromMe: boolean;
  dateCreated: number;
  threadOriginatorGuid?: string;
  associatedMessageGuid?: string;
  /** As the server's `MessageTypeTransformer` writes it: `love`, `-love`, or a numeric string. */
  associatedMessageType?: string;
  /** How it was sent (`apple-script` / `private-api`), for messages the API sent. */
  method?: string;
  /** The `tempGuid` the API was given, echoed on the message's own `new-message`. */
  tempGuid?: string;
  /** GUIDs of its attachments (`message_attachment_join`), in order. */
  attachments?: string[];
  /** chat.db's `is_audio_message`: sent with `isAudioMessage` through the Private API. */
  isAudioMessage?: boolean;
}

/** A registered webhook. */
export interface FakeWebhook {
  id: number;
  url: string;
  events: string[];
}

/** The tapback kinds BlueBubbles' `message/react` accepts (`MessageInterface.possibleReactions`), and their removals. */
export const POSSIBLE_REACTIONS = ["love", "like", "dislike", "laugh", "emphasize", "question"] as const;

/** Who the server's own account is in the tapback table. */
export const ME = "me";

/** chat.db's `style` of a group chat and of a one-to-one chat. */
export const GROUP_STYLE = 43;
export const DIRECT_STYLE = 45;

/**
 * A file of chat.db's `attachment` table, with its bytes on the Mac's disk. `converted` is what the
 * server makes of it when it serves it (`sips` HEIC → JPEG, `afconvert` CAF → M4A): the fake has
 * no converters, so a test says what the Mac's would give; without it the original is served, as
 * when a conversion fails.
 */
export interface FakeAttachment {
  rowId: number;
  guid: string;
  uti: string;
  /** chat.db's `mime_type`; null where Messages set none. */
  mimeType: string | null;
  transferName: string;
  bytes: Uint8Array;
  isSticker: boolean;
  isOutgoing: boolean;
  converted?: { bytes: Uint8Array; mimeType: string; transferName: string };
  /** What `mdls` says (image pixels, audio seconds), for the serialised `height`/`width`/`metadata`. */
  height?: number;
  width?: number;
  durationSeconds?: number;
}

/** Everything the fake BlueBubbles server holds, and the only code that changes it. */
export class FakeBlueBubblesState {
  privateApi = true;
  helperConnected = true;
  account = "bot@icloud.example";
  readonly chats = new Map<string, FakeChat>();
  readonly messages = new Map<string, FakeMessage>();
  /** Per message GUID: handle (or `me`) → the one tapback (kind or emoji) they hold. */
  readonly tapbacks = new Map<string, Map<string, string>>();
  readonly webhooks: FakeWebhook[] = [];
  /** Chats where the server's account currently shows typing. */
  readonly typing = new Set<string>();
  /** chat.db's attachments by GUID. */
  readonly attachments = new Map<string, FakeAttachment>();
  /** Files `/attachment/upload` stored for `/message/multipart`, by the `path` it answered. */
  readonly uploads = new Map<string, { name: string; bytes: Uint8Array; type: string }>();
  /** Bytes attachment downloads have written to the wire. */
  bytesServed = 0;
  #next = 1;

  /** A GUID no row has (for a forged message). */
  newGuid(): string {
    return guidOf(this.#next++);
  }

  addMessage(input: Omit<FakeMessage, "guid" | "rowId" | "dateCreated"> & { guid?: string }): FakeMessage {
    const rowId = this.#next++;
    const message: FakeMessage = { ...input, guid: input.guid ?? guidOf(rowId), rowId, dateCreated: Date.now() };
    this.messages.set(message.guid, message);
    return message;
  }

  /** A file into chat.db's `attachment` table (and onto the Mac's disk). */
  addAttachment(input: Omit<FakeAttachment, "guid" | "rowId">): FakeAttachment {
    const rowId = this.#next++;
    const attachment: FakeAttachment = { ...input, rowId, guid: `AT_0_${guidOf(rowId)}` };
    this.attachments.set(attachment.guid, attachment);
    return attachment;
  }

  /** The chat's style as chat.db has it. */
  styleOf(chatGuid: string): number {
    return chatGuid.split(";")[1] === "+" ? GROUP_STYLE : DIRECT_STYLE;
  }

  /**
   * Applies a tapback by `who`: a kind replaces whatever they held; `-kind` removes that kind
   * only when it is the one they hold. Returns whether anything changed.
   */
  applyTapback(messageGuid: string, who: string, reaction: string): boolean {
    const table = this.tapbacks.get(messageGuid) ?? new Map<string, string>();
    this.tapbacks.set(messageGuid, table);
    if (reaction.startsWith("-")) {
      if (table.get(who) !== reaction.slice(1)) return false;
      table.delete(who);
      return true;
    }
    if (table.get(who) === reaction) return false;
    table.set(who, reaction);
    return true;
  }

  /** The kind `who` holds on a message, as a list (empty or one). */
  tapbacksBy(messageGuid: string, who: string): string[] {
    const kind = this.tapbacks.get(messageGuid)?.get(who);
    return kind === undefined ? [] : [kind];
  }
}

function guidOf(rowId: number): string {
  return `FAKE-${String(rowId).padStart(6, "0")}-GUID`;
}
