import { ChorusError, type MessageRef, mintRef, type RefScope } from "@chorus/core";

/** A Zalo conversation is a person (`user`) or a group, and each has its own endpoints. */
export type ThreadKind = "user" | "group";

/** Everything Zalo needs to react to or quote one message (DESIGN §2.3). */
export interface ZaloMessageHandle {
  /** The global message id: what the agent sees as `messageId`. */
  msgId: string;
  /** The id the sending client gave the message; reactions and quotes name both. */
  cliMsgId: string;
  /** The user id (direct) or group id the message lives in. */
  threadId: string;
  threadKind: ThreadKind;
  /** Who wrote it. */
  uidFrom: string;
  /** When, in milliseconds, as Zalo's string. */
  ts: string;
  /** Zalo's message type (`webchat` for text). */
  msgType: string;
  /** Its text, for the quote a reply shows (cut to `QUOTE_TEXT_LENGTH`). */
  text: string;
  ttl: number;
}

/** How much of a message a ref keeps for quoting it. */
export const QUOTE_TEXT_LENGTH = 500;

/** The `MessageRef` of a Zalo message: the handle travels in `data`. */
export function messageRef(scope: RefScope, handle: ZaloMessageHandle): MessageRef {
  return mintRef(scope, {
    conversationId: handle.threadId,
    messageId: handle.msgId,
    authorId: handle.uidFrom,
    data: {
      cliMsgId: handle.cliMsgId,
      threadKind: handle.threadKind,
      uidFrom: handle.uidFrom,
      ts: handle.ts,
      msgType: handle.msgType,
      text: handle.text.slice(0, QUOTE_TEXT_LENGTH),
      ttl: handle.ttl,
    },
  });
}

/** The handle in a ref; `E_MESSAGE_NOT_FOUND` when the ref lacks what Zalo needs (never a silent success). */
export function handleOf(ref: MessageRef): ZaloMessageHandle {
  const data = ref.data ?? {};
  const text = (key: string) => (typeof data[key] === "string" ? (data[key] as string) : undefined);
  const cliMsgId = text("cliMsgId");
  const threadKind = text("threadKind");
  if (!/^\d+$/.test(ref.messageId) || !cliMsgId || (threadKind !== "user" && threadKind !== "group")) {
    throw new ChorusError(
      "E_MESSAGE_NOT_FOUND",
      `message ${ref.messageId} cannot be addressed on Zalo: its reference lacks the msgId, cliMsgId or thread type`,
      { hint: "React to a message the gateway received or sent itself." },
    );
  }
  return {
    msgId: ref.messageId,
    cliMsgId,
    threadId: ref.conversationId,
    threadKind,
    uidFrom: text("uidFrom") ?? "",
    ts: text("ts") ?? String(Date.now()),
    msgType: text("msgType") ?? "webchat",
    text: text("text") ?? "",
    ttl: typeof data.ttl === "number" ? data.ttl : 0,
  };
}
