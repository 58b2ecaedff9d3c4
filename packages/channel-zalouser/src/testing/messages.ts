import type { FakeMessage, FakeZaloState } from "./state.js";

/**
 * A message as the listener delivers it (zca-js `TMessage`): ids and times as strings, the
 * account's own side written as "0", a quote's `ownerId` a bare (big) number, `mentions` only in
 * groups and left out when there are none.
 */
export function wireMessage(state: FakeZaloState, message: FakeMessage): Record<string, unknown> {
  const own = message.uidFrom === state.bot.id;
  const quoted = message.quoteOf === undefined ? undefined : state.messages.get(message.quoteOf);
  return {
    actionId: String(Number(message.msgId) * 10 + 1),
    msgId: message.msgId,
    cliMsgId: message.cliMsgId,
    msgType: "webchat",
    uidFrom: own ? "0" : message.uidFrom,
    idTo: message.kind === "group" || own ? message.threadId : "0",
    dName: state.user(message.uidFrom).name,
    ts: String(message.ts),
    status: 1,
    content: message.text,
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
