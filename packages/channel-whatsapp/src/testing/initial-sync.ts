import { deflateSync } from "node:zlib";
import { type BinaryNode, proto } from "@whiskeysockets/baileys";
import type { Member } from "./directory.js";
import { newMessageId } from "./inbound.js";
import { unixSeconds } from "./nodes.js";

/**
 * The phone's first message to a freshly linked device: a history-sync notification with the
 * (empty) initial bootstrap inline. Without it Baileys waits 20 s for history before it emits any
 * message event; with it, it syncs app state (which the fake answers as up to date) and goes online.
 */
export function initialHistorySync(bot: Member): BinaryNode {
  const history = proto.HistorySync.encode({
    syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
    conversations: [],
    progress: 100,
  }).finish();
  const message = proto.Message.encode({
    protocolMessage: {
      type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
      historySyncNotification: {
        syncType: proto.Message.HistorySyncType.INITIAL_BOOTSTRAP,
        chunkOrder: 0,
        progress: 100,
        initialHistBootstrapInlinePayload: deflateSync(history),
      },
    },
  }).finish();
  return {
    tag: "message",
    attrs: { from: bot.jid, id: newMessageId(), t: unixSeconds(), type: "text", category: "peer" },
    content: [{ tag: "plaintext", attrs: {}, content: message }],
  };
}
