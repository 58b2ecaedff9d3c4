import { type ChatType, ChorusError } from "@chorus/core";

/** The group room everyone can reach; it always exists. */
export const LOBBY = "lobby";

const DIRECT_PREFIX = "dm:";
const USER_ID = /^u_[A-Za-z0-9_-]{6,64}$/u;
const GROUP_ROOM = /^[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{N}_-]{0,39}$/u;

/**
 * The kind of a room, from its id alone: `dm:<userId>` is that person's direct chat with the
 * bot, every other room is a group. Explicit by name so a conversation never changes kind (and
 * session) when a second person walks in.
 */
export function roomKind(roomId: string): ChatType {
  return roomId.startsWith(DIRECT_PREFIX) ? "direct" : "group";
}

/** The id of a person's direct room with the bot. */
export function directRoomId(userId: string): string {
  return `${DIRECT_PREFIX}${userId}`;
}

/** The person a direct room belongs to; undefined for group rooms. */
export function directRoomOwner(roomId: string): string | undefined {
  return roomId.startsWith(DIRECT_PREFIX) ? roomId.slice(DIRECT_PREFIX.length) : undefined;
}

/** True for user ids the hub mints (`u_…`). */
export function isUserId(value: string): boolean {
  return USER_ID.test(value);
}

/**
 * The canonical id of a room someone typed (`#Team Chat` → `team-chat`; `dm:<id>` kept), or an
 * `E_INVALID_INPUT` naming the rule.
 */
export function normalizeRoomId(input: string): string {
  const trimmed = input.trim();
  const owner = directRoomOwner(trimmed);
  if (owner !== undefined) {
    if (isUserId(owner)) return trimmed;
    throw new ChorusError("E_INVALID_INPUT", `room "${trimmed}" is not a valid direct room: "${owner}" is no user id`, {
      hint: "Direct rooms are dm:<userId> with the id the welcome frame gave you.",
    });
  }
  const name = trimmed.replace(/^#/u, "").toLowerCase().replace(/\s+/gu, "-");
  if (GROUP_ROOM.test(name)) return name;
  throw new ChorusError("E_INVALID_INPUT", `room name "${trimmed}" is not valid`, {
    hint: 'Use 1–40 letters, digits, "-" or "_", starting with a letter or digit (e.g. "team-chat").',
  });
}
