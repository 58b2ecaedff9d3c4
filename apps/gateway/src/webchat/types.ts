import type { ChatType, GeoLocation, UploadKind } from "@chorus/core";

/** The webchat's channel id. */
export const WEBCHAT_CHANNEL_ID = "webchat";

/** The user id of the bot (the agent) in every webchat room. */
export const BOT_ID = "bot";

/** A person (or the bot) in the webchat. */
export interface WebchatUser {
  readonly id: string;
  readonly name: string;
  /** Present (true) only for the bot. */
  readonly bot?: true;
}

/** A room as clients and the plugin see it. */
export interface RoomInfo {
  /** `lobby`, a group room's name, or `dm:<userId>` for a person's direct chat with the bot. */
  readonly id: string;
  readonly kind: ChatType;
  /** What to show: the room name, or the bot's name for a direct chat. */
  readonly title: string;
  /** Everyone who joined, the bot first. */
  readonly members: readonly WebchatUser[];
}

/** One emoji on a message and who reacted with it, in the order they did. */
export interface ReactionView {
  readonly emoji: string;
  readonly users: readonly WebchatUser[];
}

/** The message a reply points at, as far as it is still kept. */
export interface ReplyView {
  readonly id: string;
  readonly sender: WebchatUser;
  /** The start of the quoted message's text. */
  readonly text: string;
}

/**
 * A medium on a webchat message: a file someone uploaded from the page or the bot sent. The page
 * knows it by its `id` (`wm_…`, the upload's); its bytes are in the gateway's media store under
 * `mediaId` (`med_…`).
 */
export interface WebchatMedium {
  readonly id: string;
  /** Its bytes in the gateway's media store; absent for an older version's file that was gone when it was imported. */
  readonly mediaId?: string;
  readonly kind: UploadKind;
  readonly mime: string;
  readonly filename: string;
  /** Bytes. */
  readonly size: number;
  /** Pixels, for pictures and videos, where the sender said. */
  readonly width?: number;
  readonly height?: number;
}

/** A medium as clients see it (not its store id): where the page loads it from (the page adds its token). */
export interface MediumView extends Omit<WebchatMedium, "mediaId"> {
  readonly url: string;
}

/** A chat message as clients and the plugin see it. */
export interface ChatMessageView {
  readonly id: string;
  readonly room: string;
  readonly sender: WebchatUser;
  readonly text: string;
  /** Milliseconds since the epoch. */
  readonly ts: number;
  readonly replyTo?: ReplyView;
  /** People (and the bot) mentioned with `@Name`, or named explicitly by the sender. */
  readonly mentions: readonly WebchatUser[];
  readonly reactions: readonly ReactionView[];
  /** Its media, in order; present only when it has some. */
  readonly attachments?: readonly MediumView[];
  /** A place shared as a pin. */
  readonly location?: GeoLocation;
}

/** One reaction someone added or removed. */
export interface ReactionChange {
  readonly userId: string;
  readonly emoji: string;
  readonly action: "added" | "removed";
}

/** What the hub tells its listeners (the plugin and the sockets). */
export type HubEvent =
  | { readonly type: "message"; readonly message: ChatMessageView }
  | {
      readonly type: "reactions";
      readonly room: string;
      readonly messageId: string;
      readonly reactions: readonly ReactionView[];
      readonly changes: readonly ReactionChange[];
    }
  | { readonly type: "typing"; readonly room: string; readonly userId: string; readonly on: boolean }
  /** A room was created, someone joined it, or a member changed their name. */
  | { readonly type: "room"; readonly room: RoomInfo };

/** Receives hub events; errors it throws are logged, never passed on. */
export type HubListener = (event: HubEvent) => void;
