/** The memory platform's wire types: what its HTTP API sends and receives. */

export type MemoryChatKind = "direct" | "group";

export interface WireUser {
  id: string;
  name: string;
  phone?: string;
  bot?: boolean;
}

export interface WireConversation {
  id: string;
  kind: MemoryChatKind;
  title?: string;
  members: WireUser[];
}

export interface WireMessage {
  id: string;
  conversationId: string;
  threadId?: string;
  senderId: string;
  text: string;
  /** User ids mentioned explicitly. */
  mentions: string[];
  /** The message this one replies to, and who wrote it. */
  replyTo?: { id: string; senderId: string };
  /** Milliseconds since the epoch. */
  ts: number;
}

export interface WireReaction {
  userId: string;
  emoji: string;
}

/**
 * What the bot reads from `GET /v1/events`: a numbered stream of everything that happened. `id`
 * names the event and stays the same when the platform delivers it again; `seq` is its position.
 */
export type WireEvent =
  | { id: string; seq: number; type: "message"; message: WireMessage; conversation: WireConversation; sender: WireUser }
  | {
      id: string;
      seq: number;
      type: "reaction";
      action: "added" | "removed";
      reaction: WireReaction;
      message: WireMessage;
      conversation: WireConversation;
      actor: WireUser;
    };

/** `GET /v1/messages/:id/reactions` → one entry per emoji. */
export interface WireReactionSummary {
  emoji: string;
  users: string[];
}

/** Error body of every failed call: `{ error: "<code>", message }`. */
export interface WireError {
  error:
    | "unauthorized"
    | "not_found"
    | "message_not_found"
    | "conversation_not_found"
    | "invalid_reaction"
    | "already_reacted"
    | "no_reaction"
    | "removal_not_allowed"
    | "listing_not_allowed"
    | "text_too_long"
    | "bad_request";
  message: string;
}
