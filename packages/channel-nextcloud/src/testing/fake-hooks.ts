import type { TalkCreate, TalkLike, TalkMembership, TalkUndo } from "../wire.js";
import type { FakeFile } from "./fake-files.js";
import type { FakeBot, FakeMessage, FakeRoom, FakeUser } from "./fake-state.js";
import { phpArray, phpJsonEncode } from "./php-json.js";

/**
 * Webhook bodies built the way spreed builds them (`lib/Service/BotService.php` with
 * `ActivityPubHelper`, Talk 21+), field for field and in the same order, so that encoded with
 * `phpJsonEncode` they are the bytes Talk sends.
 */

/** The participant type of an ordinary user (`docs/constants.md`). */
export const PARTICIPANT_USER = 3;

/** `generatePersonFromAttendee`: the author of a `Create`; `talkParticipantType` is a numeric string. */
export function personFromAttendee(user: FakeUser) {
  return {
    type: "Person",
    id: `users/${user.id}`,
    name: user.name,
    talkParticipantType: String(user.participantType ?? PARTICIPANT_USER),
  };
}

/** `generatePersonFromMessageActor` / `generatePerson`: an actor without a participant type. */
export function person(actorId: string, name: string) {
  return { type: "Person", id: actorId, name };
}

/** `generateNote`: `content` is itself PHP-encoded JSON `{message, parameters}` (`[]` when none). */
export function noteOf(message: FakeMessage, name = "message") {
  return {
    type: "Note" as const,
    id: String(message.id),
    name,
    content: phpJsonEncode({ message: message.message, parameters: phpArray(message.parameters) }),
    mediaType: "text/markdown",
  };
}

/** `generateCollectionFromRoom`. */
export function collectionOf(room: FakeRoom) {
  return { type: "Collection" as const, id: room.token, name: room.name };
}

/** `afterChatMessageSent`: a person's message, with the quoted parent as `inReplyTo`. */
export function createHook(room: FakeRoom, author: FakeUser, message: FakeMessage, parent?: FakeMessage) {
  const object = noteOf(message);
  return {
    type: "Create",
    actor: personFromAttendee(author),
    object: parent
      ? {
          ...object,
          inReplyTo: { type: "Note", actor: person(parent.actorId, parent.actorName), object: noteOf(parent) },
        }
      : object,
    target: collectionOf(room),
  } satisfies TalkCreate;
}

/** `afterReactionAdded`: `content` is the emoji. */
export function likeHook(room: FakeRoom, reactor: FakeUser, message: FakeMessage, emoji: string) {
  return {
    type: "Like",
    actor: person(`users/${reactor.id}`, reactor.name),
    object: noteOf(message),
    target: collectionOf(room),
    content: emoji,
  } satisfies TalkLike;
}

/** `afterReactionRemoved`: the whole `Like` as `object`. */
export function undoHook(room: FakeRoom, reactor: FakeUser, message: FakeMessage, emoji: string) {
  const like = likeHook(room, reactor, message, emoji);
  return { type: "Undo", actor: like.actor, object: like, target: like.target } satisfies TalkUndo;
}

/** `afterBotEnabled` / `afterBotDisabled` (`generateApplicationFromBot`). */
export function membershipHook(type: "Join" | "Leave", bot: FakeBot, room: FakeRoom) {
  return {
    type,
    actor: { type: "Application", id: bot.actorId, name: bot.name },
    object: collectionOf(room),
  } satisfies TalkMembership;
}

/**
 * A body in Talk's envelope that this plugin cannot read: a `Create` whose note lost its id and
 * whose actor's participant type is no number (a Talk that changed its shapes would look so).
 */
export function unreadableHook(room: FakeRoom, author: FakeUser) {
  return {
    type: "Create",
    actor: { ...personFromAttendee(author), talkParticipantType: "moderator" },
    object: { type: "Note", name: "message", content: phpJsonEncode({ message: "?", parameters: [] }) },
    target: collectionOf(room),
  };
}

/** The sharer as `SystemMessage::getUser` names it: the first parameter of every system message. */
export function actorParameter(id: string, name: string) {
  return { type: "user", id, name, "mention-id": id };
}

/**
 * The `file` rich object as spreed's `SystemMessage::getFileFromShare` builds it for the author of
 * the share (a user): field for field and in its order, `size` and `permissions` cast to strings,
 * `path` in the author's files, `link` the login-only `files.viewcontroller.showFile` route.
 */
export function fileParameter(file: FakeFile, serverUrl: string) {
  const name = file.path.split("/").pop() ?? file.path;
  return {
    type: "file",
    id: String(file.id),
    name,
    size: String(file.bytes.byteLength),
    path: file.path,
    link: `${serverUrl}/index.php/f/${file.id}`,
    etag: file.etag,
    permissions: "27",
    mimetype: file.mimetype,
    "preview-available": file.mimetype.startsWith("image/") ? "yes" : "no",
    "hide-download": "no",
  };
}

/**
 * The `geo-location` rich object of a shared location (`object_shared`: the client's `metaData`
 * with its `id` cast to a string; server `RichObjectStrings/Definitions.php`: id, name, latitude,
 * longitude).
 */
export function geoParameter(location: { latitude: number; longitude: number; name?: string | undefined }) {
  return {
    type: "geo-location",
    id: `geo:${location.latitude},${location.longitude}`,
    name: location.name ?? "",
    latitude: String(location.latitude),
    longitude: String(location.longitude),
  };
}
