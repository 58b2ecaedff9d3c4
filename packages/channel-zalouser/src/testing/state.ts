/** Everything the fake Zalo holds, and the only code that changes it. */

export interface FakeUser {
  id: string;
  name: string;
}

export interface FakeGroup {
  id: string;
  name: string;
  memberIds: string[];
}

export interface FakeMention {
  uid: string;
  pos: number;
  len: number;
  type: 0 | 1;
}

/** How Zalo shows a medium: its message types `chat.photo`, `chat.gif`, `chat.video.msg`, `chat.voice`, `share.file`, `chat.sticker`. */
export type FakeMediumKind = "photo" | "gif" | "video" | "voice" | "file" | "sticker";

/** A medium on a message, as Zalo keeps it: its bytes, and where its CDN serves them. */
export interface FakeMedium {
  kind: FakeMediumKind;
  bytes: Uint8Array;
  filename: string;
  mime: string;
  /** Its URL on a Zalo media host (`apiBase` sends it to the fake). */
  url: string;
  /** A photo's description, a video's title. */
  caption?: string;
  width?: number;
  height?: number;
  durationMs?: number;
  /** A sticker's catalogue entry (`chat.sticker` carries only these). */
  sticker?: { id: number; catId: number; type: number };
}

/** A place someone shared (`chat.location.new`). */
export interface FakeLocation {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

/** One message as Zalo stores it. */
export interface FakeMessage {
  msgId: string;
  cliMsgId: string;
  /** The user id (direct: the person, seen from the bot) or group id. */
  threadId: string;
  kind: "user" | "group";
  uidFrom: string;
  text: string;
  ts: number;
  mentions?: FakeMention[];
  /** The message it quotes. */
  quoteOf?: string;
  /** The medium it carries (its `text` is then the caption, or ""). */
  medium?: FakeMedium;
  location?: FakeLocation;
}

/** One reaction: who holds which icon on a message. */
export interface FakeReaction {
  uid: string;
  icon: string;
  rType: number;
}

/** A Zalo Web session: its cookie, the device it is bound to and its AES key. */
export interface FakeSession {
  sek: string;
  zpsid: string;
  uid: string;
  /** Bound at the first `getLoginInfo` (a QR login's client makes it up). */
  imei?: string;
  /** `zpw_enk`, base64. */
  enk: string;
  revoked: boolean;
}

export class FakeZaloState {
  readonly users = new Map<string, FakeUser>();
  readonly groups = new Map<string, FakeGroup>();
  readonly messages = new Map<string, FakeMessage>();
  /** Per message id, oldest first. */
  readonly reactions = new Map<string, FakeReaction[]>();
  /** Every typing event the bot sent: thread id and kind. */
  readonly typing: { threadId: string; kind: "user" | "group" }[] = [];
  readonly sessions = new Map<string, FakeSession>();
  #nextMessage = 6_200_000_000_000n;

  constructor(readonly bot: FakeUser) {
    this.users.set(bot.id, bot);
  }

  /** A new global message id (13 digits, as Zalo's are). */
  nextMessageId(): string {
    this.#nextMessage += 1n;
    return String(this.#nextMessage);
  }

  addMessage(message: Omit<FakeMessage, "msgId"> & { msgId?: string }): FakeMessage {
    const stored = { ...message, msgId: message.msgId ?? this.nextMessageId() };
    this.messages.set(stored.msgId, stored);
    return stored;
  }

  /** Adds `icon` for `uid`; false when that user already holds it. */
  addReaction(msgId: string, uid: string, icon: string, rType: number): boolean {
    const list = this.reactions.get(msgId) ?? [];
    if (list.some((r) => r.uid === uid && r.icon === icon)) return false;
    this.reactions.set(msgId, [...list, { uid, icon, rType }]);
    return true;
  }

  /** Removes every reaction of `uid` on the message (`Reactions.NONE`). */
  clearReactions(msgId: string, uid: string): void {
    this.reactions.set(
      msgId,
      (this.reactions.get(msgId) ?? []).filter((r) => r.uid !== uid),
    );
  }

  /** One user's icons on a message, oldest first. */
  reactionsBy(msgId: string, uid: string): string[] {
    return (this.reactions.get(msgId) ?? []).filter((r) => r.uid === uid).map((r) => r.icon);
  }

  user(id: string): FakeUser {
    return this.users.get(id) ?? { id, name: `User ${id.slice(-4)}` };
  }
}

/** The kind Zalo's apps show a medium as, in core's words (a GIF is an image). */
export function shownKind(medium: FakeMedium): "image" | "video" | "voice" | "file" | "sticker" {
  if (medium.kind === "photo" || medium.kind === "gif") return "image";
  return medium.kind;
}
