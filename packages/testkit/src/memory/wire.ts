/**
 * The memory platform's wire types: what its HTTP API sends and receives.
 *
 * Media travel as raw bytes, never base64 in JSON:
 * - `POST /v1/uploads`: the body is the medium's bytes, streamed (`Content-Type` its MIME type,
 *   `Content-Length` its size, `X-Filename` its name percent-encoded) → 201 `WireUpload`. Over
 *   `maxUploadBytes` → 413 `too_large`. An upload is attached to no message yet.
 * - `POST /v1/conversations/:id/messages` with `media: [{ uploadId, kind, caption? }]` (at most
 *   `maxMediaPerMessage`) and/or `location` posts them; `text` may then be "".
 * - `GET /v1/media/:id` (bearer token) → 200, the bytes as uploaded with their `Content-Type` and
 *   `Content-Length`; an unknown id → 404 `media_not_found`.
 */

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

/** A kind of medium the platform shows (core's upload kinds). */
export type WireMediaKind = "image" | "video" | "audio" | "voice" | "file" | "sticker";

/** A medium on a message; `GET /v1/media/:id` serves its bytes. */
export interface WireMedium {
  id: string;
  kind: WireMediaKind;
  mime: string;
  filename: string;
  /** Bytes. */
  size: number;
  caption?: string;
}

/** A location pin. */
export interface WireLocation {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

/** A shared contact card. */
export interface WireContact {
  name: string;
  phones?: string[];
}

/** `POST /v1/uploads` → the stored bytes, ready to be attached to a message by `id`. */
export interface WireUpload {
  id: string;
  mime: string;
  filename: string;
  size: number;
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
  /** Its media, in order (an album); left out when it has none. */
  media?: WireMedium[];
  location?: WireLocation;
  contact?: WireContact;
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
    | "too_large"
    | "too_many_media"
    | "media_not_found"
    | "bad_request";
  message: string;
}
