import type { BinaryNode } from "@whiskeysockets/baileys";
import type { FakeConnection } from "./connection.js";
import { answerIq, type IqDeps } from "./iq-handlers.js";
import { childNodes } from "./nodes.js";
import { receiveBotMessage } from "./outbound.js";

/** Handles one node the bot sent, after logging it. */
export async function dispatch(deps: IqDeps, connection: FakeConnection, node: BinaryNode): Promise<void> {
  const { ctx } = deps;
  ctx.log.record(node, connection.device);
  switch (node.tag) {
    case "iq": {
      const answer = await answerIq(deps, connection, node);
      if (answer) connection.send(answer);
      return;
    }
    case "message":
      return receiveBotMessage(ctx, connection, node);
    case "receipt":
      connection.send({
        tag: "ack",
        attrs: {
          class: "receipt",
          id: node.attrs.id ?? "",
          from: node.attrs.to ?? "",
          ...(node.attrs.type ? { type: node.attrs.type } : {}),
        },
      });
      return;
    case "chatstate": {
      const state = childNodes(node)[0];
      if (state) {
        const recording = state.tag === "composing" && state.attrs.media === "audio";
        ctx.store.recordChatState(ctx.directory.chatOf(node.attrs.to ?? ""), recording ? "recording" : state.tag);
      }
      return;
    }
    case "presence":
    case "ack":
    case "ib":
      return;
    default:
      ctx.log.markUnhandled(node);
  }
}
