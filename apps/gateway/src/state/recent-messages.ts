import type { Attachment, InboundMessageEvent, MessageRef } from "@chorus/core";
import { rowCount, type SqlDb } from "./sql/sql.js";

/**
 * An attachment as outside agents see it (`/v1/events`, `recent_messages`): what it is and its
 * `mediaId` in the gateway's store, never the plugin's opaque `source`; `error` says why it is not
 * in the store.
 */
export type AttachmentView = Omit<Attachment, "source"> & { readonly error?: string };

/** An inbound message with attachments, as `recentMessages` hands it to be shown: its inbox row and event. */
export interface InboxMessage {
  /** The inbox row id. */
  id: number;
  channel: string;
  account: string;
  event: InboundMessageEvent;
}

/** One message of a conversation as `recent_messages` shows it; `messageId` works as the tool's `messageId`. */
export interface RecentMessage {
  messageId: string;
  fromBot: boolean;
  /** The text, where the inbox (inbound), the outbox (the gateway's replies) or a transcript (an outside agent's answer) has it. */
  text?: string;
  sender?: { id: string; name?: string };
  /** Epoch ms, where known. */
  at?: number;
  threadId?: string;
  /** An inbound message's photos, voice notes, files, locations…, in its order. */
  attachments?: AttachmentView[];
}

/** The attachments of an inbound message as shown: by default, what the platform said, without `source`. */
export type ShowAttachments = (message: InboxMessage) => Promise<AttachmentView[]>;

/** How many inbox and outbox rows of the account are read to find the texts. */
const TEXT_SCAN_ROWS = 2_000;
/** How many transcript entries of each session of the conversation are read. */
const TRANSCRIPT_SCAN_ROWS = 200;

/**
 * The last `limit` messages of a conversation, newest last: their ids and order from the message
 * index (`message_refs`, bounded per conversation, ordered by when the gateway first received or
 * sent each message; reactions to a message do not move it), their texts from the inbox and the outbox
 * (kept for the inbox's dedupe window), and the bot's answers recorded in the conversation's
 * session transcripts. A message sent through the API outside any turn shows without text. An inbound
 * message's attachments are shown by `show` (the gateway's: with their `mediaId`).
 */
export async function recentMessages(
  db: SqlDb,
  where: { channel: string; account: string; conversation: string },
  limit: number,
  show: ShowAttachments = async ({ event }) => (event.attachments ?? []).map(withoutSource),
): Promise<RecentMessage[]> {
  const refs = await db.all<{ ref: string }>(
    `SELECT ref FROM message_refs WHERE channel = $1 AND account = $2 AND conversation = $3
     ORDER BY seq DESC LIMIT $4`,
    [where.channel, where.account, where.conversation, limit],
  );
  const messages = refs.map((row) => JSON.parse(row.ref) as MessageRef).reverse();
  if (messages.length === 0) return [];
  const wanted = new Set(messages.map((m) => m.messageId));
  const inbound = new Map<string, InboxMessage>();
  const sessions = new Set<string>();
  const inbox = await db.all<{ id: number; event: string; session_key: string | null }>(
    "SELECT id, event, session_key FROM inbox WHERE channel = $1 AND account = $2 ORDER BY id DESC LIMIT $3",
    [where.channel, where.account, TEXT_SCAN_ROWS],
  );
  for (const row of inbox) {
    const event = JSON.parse(row.event) as InboundMessageEvent;
    if (event.type !== "message" || event.conversation.id !== where.conversation) continue;
    if (row.session_key) sessions.add(row.session_key);
    if (wanted.has(event.ref.messageId))
      inbound.set(event.ref.messageId, { id: Number(row.id), channel: where.channel, account: where.account, event });
  }
  const replies = new Map<string, { text: string; sent_at: number | null }>();
  const outbox = await db.all<{ text: string; platform_id: string; sent_at: number | null }>(
    `SELECT text, platform_id, sent_at FROM outbox WHERE channel = $1 AND account = $2 AND platform_id IS NOT NULL
     ORDER BY id DESC LIMIT $3`,
    [where.channel, where.account, TEXT_SCAN_ROWS],
  );
  for (const row of outbox) if (wanted.has(row.platform_id)) replies.set(row.platform_id, row);
  for (const [messageId, answer] of await transcriptAnswers(db, sessions, wanted))
    if (!replies.has(messageId)) replies.set(messageId, answer);
  const shown = new Map<string, AttachmentView[]>();
  for (const message of inbound.values())
    if (message.event.attachments?.length) shown.set(message.event.ref.messageId, await show(message));
  return messages.map((ref): RecentMessage => {
    const event = inbound.get(ref.messageId)?.event;
    const reply = replies.get(ref.messageId);
    const attachments = shown.get(ref.messageId);
    const text = event?.text ?? reply?.text;
    const at = event?.timestamp ?? reply?.sent_at ?? undefined;
    return {
      messageId: ref.messageId,
      fromBot: ref.fromBot === true,
      ...(text !== undefined ? { text } : {}),
      ...(event ? { sender: { id: event.sender.id, ...(event.sender.name ? { name: event.sender.name } : {}) } } : {}),
      ...(at !== undefined ? { at } : {}),
      ...(ref.threadId ? { threadId: ref.threadId } : {}),
      ...(attachments ? { attachments } : {}),
    };
  });
}

/** An attachment without the plugin's `source` (what it needs to download it: a file id, a URL, a key). */
export function withoutSource(attachment: Attachment): AttachmentView {
  const { source: _source, ...view } = attachment;
  return view;
}

/** The bot's answers with a message id in the transcripts of these sessions, by message id. */
async function transcriptAnswers(
  db: SqlDb,
  sessionKeys: ReadonlySet<string>,
  wanted: ReadonlySet<string>,
): Promise<Map<string, { text: string; sent_at: number | null }>> {
  const answers = new Map<string, { text: string; sent_at: number | null }>();
  for (const key of sessionKeys) {
    const session = await db.one<{ entry: string }>("SELECT entry FROM sessions WHERE key = $1", [key]);
    const sessionId = session && (JSON.parse(session.entry) as { sessionId?: string }).sessionId;
    if (!sessionId) continue;
    const rows = await db.all<{ entry: string; message_id: string | null }>(
      `SELECT entry, message_id FROM transcripts WHERE session_id = $1 ORDER BY id DESC LIMIT ${rowCount(TRANSCRIPT_SCAN_ROWS)}`,
      [sessionId],
    );
    for (const row of rows) {
      const entry = JSON.parse(row.entry) as { role?: string; content?: string; at?: string; messageId?: string };
      const messageId = row.message_id ?? entry.messageId;
      if (entry.role !== "assistant" || !messageId || !wanted.has(messageId) || typeof entry.content !== "string")
        continue;
      const at = entry.at ? Date.parse(entry.at) : Number.NaN;
      answers.set(messageId, { text: entry.content, sent_at: Number.isNaN(at) ? null : at });
    }
  }
  return answers;
}
