import type { ChatMessage, Room, User } from "./wire.js";

/** What the page knows: who it is, the rooms and their messages, and who is typing where. */
export interface PageState {
  me: User | null;
  bot: User | null;
  /** The room on screen. */
  current: string | null;
  /** The message the composer answers. */
  replyTo: ChatMessage | null;
  /** A room asked for in the join box, shown once its history arrives. */
  pendingJoin: string | null;
  readonly rooms: Map<string, Room>;
  /** Each room's messages, oldest first (at most 1,000). */
  readonly messages: Map<string, ChatMessage[]>;
  /** Rooms joined on the current connection. */
  readonly joined: Set<string>;
  /** Rooms with messages not seen yet. */
  readonly unread: Set<string>;
  /** Room → user id → until when (ms) they count as typing. */
  readonly typing: Map<string, Map<string, number>>;
  /** When the page last told the room this person is typing. */
  typingSentAt: number;
  typingOffTimer: number | undefined;
}

/** The page's one state. */
export const state: PageState = {
  me: null,
  bot: null,
  current: null,
  replyTo: null,
  pendingJoin: null,
  rooms: new Map(),
  messages: new Map(),
  joined: new Set(),
  unread: new Set(),
  typing: new Map(),
  typingSentAt: 0,
  typingOffTimer: undefined,
};
