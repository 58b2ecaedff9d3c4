/**
 * The frames the page exchanges with the gateway over its WebSocket, as the page reads and writes
 * them. `page-wire.test.ts` checks them against the server's own types (`protocol.ts`), both ways.
 */

/** A person, or the bot. */
export interface User {
  readonly id: string;
  readonly name: string;
  readonly bot?: true;
}

/** A room: `lobby`, a group room by name, or `dm:<userId>`. */
export interface Room {
  readonly id: string;
  readonly kind: "direct" | "group";
  readonly title: string;
  readonly members: readonly User[];
}

/** One emoji on a message and who reacted with it. */
export interface Reaction {
  readonly emoji: string;
  readonly users: readonly User[];
}

/** The message a reply quotes. */
export interface Quote {
  readonly id: string;
  readonly sender: User;
  readonly text: string;
}

/** What a medium is. */
export type MediumKind = "image" | "video" | "audio" | "voice" | "file" | "sticker";

/** A medium on a message: a file kept by the webchat, loaded from `url` (with the page's token). */
export interface Medium {
  readonly id: string;
  readonly kind: MediumKind;
  readonly mime: string;
  readonly filename: string;
  readonly size: number;
  readonly width?: number;
  readonly height?: number;
  readonly url: string;
}

/** A place shared as a pin. */
export interface Place {
  readonly latitude: number;
  readonly longitude: number;
  readonly name?: string;
  readonly address?: string;
}

/** A chat message; its reactions change as `reactions` frames arrive. */
export interface ChatMessage {
  readonly id: string;
  readonly room: string;
  readonly sender: User;
  readonly text: string;
  readonly ts: number;
  readonly replyTo?: Quote;
  readonly mentions: readonly User[];
  reactions: readonly Reaction[];
  readonly attachments?: readonly Medium[];
  readonly location?: Place;
}

export type ClientFrameType = "hello" | "join" | "message" | "react" | "typing";

/** Every frame the gateway sends. */
export type ServerFrame =
  | { readonly type: "welcome"; readonly you: User; readonly bot: User; readonly rooms: readonly Room[] }
  | { readonly type: "history"; readonly room: string; readonly messages: readonly ChatMessage[] }
  | { readonly type: "message"; readonly message: ChatMessage }
  | {
      readonly type: "reactions";
      readonly room: string;
      readonly messageId: string;
      readonly reactions: readonly Reaction[];
    }
  | { readonly type: "typing"; readonly room: string; readonly userId: string; readonly on: boolean }
  | { readonly type: "room"; readonly room: Room }
  | {
      readonly type: "error";
      readonly code: string;
      readonly message: string;
      readonly hint?: string;
      readonly frame?: ClientFrameType;
    };

export type WelcomeFrame = Extract<ServerFrame, { type: "welcome" }>;
export type ReactionsFrame = Extract<ServerFrame, { type: "reactions" }>;
export type TypingFrame = Extract<ServerFrame, { type: "typing" }>;
export type ErrorFrame = Extract<ServerFrame, { type: "error" }>;

/** Every frame the page sends. */
export type ClientFrame =
  | { type: "hello"; name: string; userId?: string }
  | { type: "join"; room: string }
  | {
      type: "message";
      room: string;
      /** May be empty when the message carries uploads or a place. */
      text: string;
      replyTo?: string;
      /** Ids of complete uploads. */
      attachments?: string[];
      location?: { latitude: number; longitude: number; name?: string; address?: string };
    }
  | { type: "react"; messageId: string; emoji: string; remove?: boolean }
  | { type: "typing"; room: string; on: boolean };
