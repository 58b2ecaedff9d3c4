import type { FakeServer, PlatformFault } from "@chorus/testkit";
import type { TalkCreate, TalkLike, TalkMembership, TalkUndo } from "../wire.js";
import type { DeliverOptions, Delivery } from "./fake-delivery.js";
import type { FakeAccount, FakeFile } from "./fake-files.js";
import type { FakeBot, FakeMessage, FakeRoom, FakeTalkState, FakeUser } from "./fake-state.js";

/** The fake Talk's options, inputs and face: `createFakeTalk` in `fake-talk.ts` builds it. */

export interface FakeTalkOptions {
  /** Talk's `max-length` of a chat message; default 32000. */
  maxTextLength?: number;
  /** The largest request body (a WebDAV upload) the server takes, answered 413 above; default 512 MB. */
  maxUploadBytes?: number;
}

/** A file someone shares into a conversation. */
export interface FileShareInput {
  token: string;
  user: FakeUser;
  name: string;
  bytes: Uint8Array;
  caption?: string | undefined;
}

/** What a person writes. */
export interface UserMessageInput {
  token: string;
  user: FakeUser;
  /** Text with `{placeholders}` for `parameters`. */
  message: string;
  parameters?: Record<string, unknown>;
  replyTo?: number;
}

/** A stateful fake Nextcloud Talk on 127.0.0.1: the bot OCS API, plus webhooks signed and encoded as Talk does. */
export interface FakeTalk {
  readonly server: FakeServer;
  readonly state: FakeTalkState;
  readonly url: string;
  /** Every webhook posted, with the exact bytes of its body. */
  readonly deliveries: readonly Delivery[];
  start(): Promise<string>;
  close(): Promise<void>;
  /** `occ talk:bot:install <name> <secret> <url> --feature …`. */
  installBot(input: { name: string; secret: string; url: string; features?: string[] }): FakeBot;
  /** Creates a group conversation, or a one-to-one (named by its sorted user ids) with `users`. */
  addRoom(input: { token: string; name?: string; type?: "group" | "one2one"; users?: string[] }): FakeRoom;
  /** `occ talk:bot:setup <bot-id> <token>`: enables the bot in a conversation. */
  setupBot(bot: FakeBot, token: string): void;
  /** The `channels.nextcloud` block for a bot. */
  config(bot: FakeBot, extra?: Record<string, unknown>): Record<string, unknown>;
  /** Someone writes; returns the `Create` hook Talk would send (not yet delivered). */
  userSends(input: UserMessageInput): TalkCreate & { object: { id: string } };
  /** Someone reacts; returns the `Like` hook. */
  userReacts(messageId: number, user: FakeUser, emoji: string): TalkLike;
  /** Someone takes a reaction back; returns the `Undo` hook. */
  userUnreacts(messageId: number, user: FakeUser, emoji: string): TalkUndo;
  /** The `Join`/`Leave` hook for a bot and a conversation. */
  membershipEvent(type: "Join" | "Leave", bot: FakeBot, token: string): TalkMembership;
  /**
   * Someone uploads a file to their Talk folder and shares it into a conversation, as Talk's clients
   * do; returns the `Create` hook (Talk 23: `object.name` "message") with the `{file}` rich object.
   */
  userSharesFile(input: FileShareInput): TalkCreate & { object: { id: string } };
  /** Someone shares a location (`object_shared`, `geo-location`); returns the `Create` hook. */
  userSharesLocation(input: {
    token: string;
    user: FakeUser;
    location: { latitude: number; longitude: number; name?: string | undefined };
  }): TalkCreate & { object: { id: string } };
  /** A Nextcloud account with an app password (the bot's files user), with these folders already there. */
  addAccount(input: { id: string; appPassword: string; displayName?: string; folders?: string[] }): FakeAccount;
  /** Adds a user to a conversation. */
  addParticipant(token: string, userId: string): void;
  /** The chat message a share made with this `referenceId`, and its file. */
  sharedMessage(referenceId: string): { message: FakeMessage; file?: FakeFile } | undefined;
  /** The next share is made, but a proxy answers 504 in its place: the client never hears of it. */
  loseNextShareAnswer(): void;
  /** Bytes served by WebDAV downloads so far. */
  readonly bytesServed: number;
  /** A hook in a conversation that the plugin cannot read (see `unreadableHook`). */
  unreadableEvent(token: string, user: FakeUser): object;
  /**
   * Posts `body` to `url` as Talk does: PHP-encoded (a string is sent as it is), signed over
   * random + body with the bot's secret; resolves with the answer.
   */
  deliver(url: string, bot: FakeBot, body: object | string, options?: DeliverOptions): Promise<Response>;
  /** The last genuine delivery again, as Talk would fire it again: same body, a fresh random. */
  redeliverLast(url?: string): Promise<Response>;
  /** The last delivery posted again with its random and signature: a captured request replayed. */
  replayLast(): Promise<Response>;
  /** Delivers a hook to every bot enabled in `token` with the feature it needs, at its URL. */
  dispatch(token: string, body: object): Promise<number[]>;
  /** From now on every bot API request misbehaves like `kind` (refuse, close, hang, garbage), until `heal()`. */
  outage(kind: PlatformFault): void;
  heal(): void;
  /** A bot's reactions on a message, as Talk stores them. */
  botReactions(messageId: number, bot: FakeBot): string[];
  reactionsBy(messageId: number, actorId: string): string[];
  messagesIn(token: string): FakeMessage[];
}
