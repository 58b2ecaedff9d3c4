import { type JsonValue, z } from "@chorus/core";

/*
 * How the webchat keeps its rooms in the channel's `ctx.store`, one small entry each:
 *   users/<userId>                 { name }
 *   rooms/<roomId>                 { members }            (people in the order they joined)
 *   messages/<roomId>/<seq>        a message, as written  (seq: its place in the room, zero-padded;
 *                                  its media's bytes by `mediaId` in the gateway's media store)
 *   reactions/<roomId>/<seq>       [[emoji, userIds]]     (only while the message has reactions)
 * Room ids never contain `/` (see `normalizeRoomId`), so a key's last `/` ends the room id.
 */

export const USERS = "users/";
export const ROOMS = "rooms/";
export const MESSAGES = "messages/";
export const REACTIONS = "reactions/";

const SEQ_DIGITS = 12;

export const userKey = (userId: string): string => `${USERS}${userId}`;
export const roomKey = (roomId: string): string => `${ROOMS}${roomId}`;
export const messageKey = (roomId: string, seq: number): string => `${MESSAGES}${roomId}/${seqText(seq)}`;
export const reactionsKey = (roomId: string, seq: number): string => `${REACTIONS}${roomId}/${seqText(seq)}`;

function seqText(seq: number): string {
  return String(seq).padStart(SEQ_DIGITS, "0");
}

/** The room and place of a `messages/…` or `reactions/…` key; undefined for a key of another form. */
export function placeOf(key: string, prefix: string): { room: string; seq: number } | undefined {
  const rest = key.slice(prefix.length);
  const slash = rest.lastIndexOf("/");
  const seq = Number(rest.slice(slash + 1));
  if (!key.startsWith(prefix) || slash <= 0 || !Number.isSafeInteger(seq) || seq < 1) return undefined;
  return { room: rest.slice(0, slash), seq };
}

export const storedUser = z.object({ name: z.string() }).strict();

export const storedRoom = z.object({ members: z.array(z.string().min(1)) }).strict();

const storedMedium = z
  .object({
    id: z.string().min(1),
    mediaId: z.string().min(1).optional(),
    kind: z.enum(["image", "video", "audio", "voice", "file", "sticker"]),
    mime: z.string().min(1),
    filename: z.string().min(1),
    size: z.number().int().min(0),
    width: z.number().int().min(1).optional(),
    height: z.number().int().min(1).optional(),
  })
  .strict();

const storedLocation = z
  .object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: z.string().optional(),
    address: z.string().optional(),
  })
  .strict();

export const storedMessage = z
  .object({
    id: z.string().min(1),
    senderId: z.string().min(1),
    /** The sender's name when they wrote it, shown if they are no longer known. */
    senderName: z.string(),
    text: z.string(),
    ts: z.number(),
    replyTo: z.string().optional(),
    mentions: z.array(z.string()),
    /** Its media (each `mediaId` in the gateway's media store; files in the state dir before it), in order. */
    media: z.array(storedMedium).optional(),
    location: storedLocation.optional(),
  })
  .strict();

/** `[emoji, userIds]` in the order the emoji were first added. */
export const storedReactions = z.array(z.tuple([z.string().min(1), z.array(z.string().min(1))]));

export type StoredMessage = z.output<typeof storedMessage>;
export type StoredReactions = z.output<typeof storedReactions>;

/** A stored value as the store takes it (zod's output types allow `undefined` in optional keys; JSON drops them). */
export const json = (value: object): JsonValue => value as JsonValue;
