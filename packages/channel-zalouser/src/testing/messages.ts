import { md5 } from "./media-store.js";
import type { FakeMessage, FakeZaloState } from "./state.js";

/** Zalo's message type of each medium. */
const MSG_TYPES = {
  photo: "chat.photo",
  gif: "chat.gif",
  video: "chat.video.msg",
  voice: "chat.voice",
  file: "share.file",
  sticker: "chat.sticker",
} as const;

/** An attachment's `content` (zca-js `TAttachmentContent`): every field, `params` a JSON string. */
const attachment = (fields: { title?: string | undefined; href?: string; thumb?: string; params?: unknown }) => ({
  title: fields.title ?? "",
  description: "",
  href: fields.href ?? "",
  thumb: fields.thumb ?? "",
  childnumber: 0,
  action: "",
  params: fields.params === undefined ? "" : JSON.stringify(fields.params),
  type: "",
});

/**
 * The message type and `content` of a message as the listener delivers it (src/fixtures/SOURCES.md):
 * text as a string; a photo, GIF, video, voice message or file as an attachment object whose `href`
 * is the medium's URL and `thumb` its thumbnail (what zca-js's own quote code reads them as), `params`
 * a JSON string (a photo's `width`/`height`; a file's `fileSize` as a string, `checksum`, `fileExt`;
 * a video's `duration` in ms, `width`, `height`, `fileSize`; a voice message's `fileSize`); a
 * sticker as `{ id, catId, type }`; a location as `params` with `latitude`/`longitude`, its name
 * the `title`, its address the `description`.
 */
function contentOf(message: FakeMessage): { msgType: string; content: unknown } {
  const { medium, location } = message;
  if (location) {
    const { latitude, longitude, name, address } = location;
    return {
      msgType: "chat.location.new",
      content: { ...attachment({ title: name ?? "", params: { latitude, longitude } }), description: address ?? "" },
    };
  }
  if (!medium) return { msgType: "webchat", content: message.text };
  const msgType = MSG_TYPES[medium.kind];
  const size = medium.bytes.byteLength;
  const dimensions = {
    ...(medium.width !== undefined && { width: medium.width }),
    ...(medium.height !== undefined && { height: medium.height }),
  };
  switch (medium.kind) {
    case "sticker":
      return { msgType, content: { ...medium.sticker } };
    case "photo":
    case "gif":
      return {
        msgType,
        content: attachment({ title: medium.caption, href: medium.url, thumb: medium.url, params: dimensions }),
      };
    case "video": {
      const duration = medium.durationMs ?? 0;
      const params = { duration, ...dimensions, fileSize: size };
      return { msgType, content: attachment({ title: medium.caption, href: medium.url, thumb: medium.url, params }) };
    }
    case "voice":
      return { msgType, content: attachment({ href: medium.url, params: { fileSize: size } }) };
    case "file": {
      const ext = medium.filename.includes(".") ? medium.filename.split(".").pop() : "";
      const params = { fileSize: String(size), checksum: md5(medium.bytes), fileExt: ext, fdata: "{}", fType: 1 };
      return { msgType, content: attachment({ title: medium.filename, href: medium.url, params }) };
    }
  }
}

/**
 * A message as the listener delivers it (zca-js `TMessage`): ids and times as strings, the
 * account's own side written as "0", a quote's `ownerId` a bare (big) number, `mentions` only in
 * groups and left out when there are none.
 */
export function wireMessage(state: FakeZaloState, message: FakeMessage): Record<string, unknown> {
  const own = message.uidFrom === state.bot.id;
  const quoted = message.quoteOf === undefined ? undefined : state.messages.get(message.quoteOf);
  const { msgType, content } = contentOf(message);
  return {
    actionId: String(Number(message.msgId) * 10 + 1),
    msgId: message.msgId,
    cliMsgId: message.cliMsgId,
    msgType,
    uidFrom: own ? "0" : message.uidFrom,
    idTo: message.kind === "group" || own ? message.threadId : "0",
    dName: state.user(message.uidFrom).name,
    ts: String(message.ts),
    status: 1,
    content,
    notify: "1",
    ttl: 0,
    userId: "0",
    uin: "0",
    topOut: "0",
    topOutTimeOut: "0",
    topOutImprTimeOut: "0",
    propertyExt: { color: 0, size: 0, type: 0, subType: 0, ext: '{"shouldParseLinkOrContact":0}' },
    paramsExt: { countUnread: 1, containType: 0, platformType: 1 },
    cmd: message.kind === "group" ? 521 : 501,
    st: 3,
    at: 5,
    realMsgId: "0",
    ...(message.kind === "group" && message.mentions?.length ? { mentions: message.mentions } : {}),
    ...(quoted && {
      quote: {
        ownerId: BigInt(quoted.uidFrom),
        cliMsgId: Number(quoted.cliMsgId),
        globalMsgId: Number(quoted.msgId),
        cliMsgType: 1,
        ts: quoted.ts,
        msg: quoted.text,
        attach: "",
        fromD: state.user(quoted.uidFrom).name,
        ttl: 0,
      },
    }),
  };
}

/** A reaction as the listener delivers it (zca-js `TReaction`): its `content` is a JSON string. */
export function wireReaction(
  state: FakeZaloState,
  target: FakeMessage,
  uid: string,
  icon: string,
  rType: number,
): Record<string, unknown> {
  const own = uid === state.bot.id;
  const id = state.nextMessageId();
  return {
    actionId: String(Number(id) * 10 + 2),
    msgId: id,
    cliMsgId: String(Date.now()),
    msgType: "chat.reaction",
    uidFrom: own ? "0" : uid,
    idTo: target.kind === "group" || own ? target.threadId : "0",
    dName: state.user(uid).name,
    content: JSON.stringify({
      rMsg: [{ gMsgID: target.msgId, cMsgID: target.cliMsgId, msgType: 1 }],
      rIcon: icon,
      rType,
      source: 6,
    }),
    ts: String(Date.now()),
    ttl: 0,
  };
}
