import { ChorusError, type InboundMessageEvent, type InboundReactionEvent } from "@chorus/core";
import { checkAccess, type PairingStore } from "../access/index.js";
import type { ChannelEntry, ChannelRegistry } from "../channels/index.js";
import { shouldNotify } from "../reaction-notifications/index.js";
import {
  type AttachmentView,
  type InboxMessage,
  type InboxRow,
  type MessageIndex,
  withoutSource,
} from "../state/index.js";
import type { MediaUnderstanding } from "../understand/index.js";
import { attachmentView, refusedViews } from "./attachments.js";

/** A normalised inbound event as the stream carries it (`data:` of one SSE event). */
export type StreamEvent =
  | ({ id: string; type: "message"; channel: string; account: string; receivedAt: number; sessionKey?: string } & Omit<
      InboundMessageEvent,
      "type" | "eventId" | "ref" | "attachments"
    > & { messageId: string; eventId: string; attachments?: AttachmentView[] })
  | ({ id: string; type: "reaction"; channel: string; account: string; receivedAt: number } & Omit<
      InboundReactionEvent,
      "type" | "eventId" | "target"
    > & { messageId: string; eventId: string; fromBot: boolean });

export interface EventFilterOptions {
  registry: ChannelRegistry;
  pairing: Pick<PairingStore, "isApproved">;
  index: Pick<MessageIndex, "get">;
  /**
   * The gateway's intake of attachments (the one the turns use): a message's attachments are stored
   * through it before its event is shown, so they carry their `mediaId`. None: shown without one.
   */
  media?: Pick<MediaUnderstanding, "of"> | undefined;
}

/**
 * Which inbox rows the stream shows, and how: messages that pass the channel's access rules
 * (`dmPolicy`, `groupPolicy`, allowlists, pairing — read only: the stream never issues a pairing
 * code), reactions that `reactionNotifications` accepts. A row of an account no longer configured
 * is not shown. Live and replayed events go through the same check, as the rules are now. A shown
 * message's attachments are in the media store first (downloaded once, whoever reads it first).
 */
export class EventFilter {
  constructor(private readonly options: EventFilterOptions) {}

  /** The row as the stream shows it, or undefined; `signal` stops a download under way (the stream closed). */
  async view(row: InboxRow, signal?: AbortSignal): Promise<StreamEvent | undefined> {
    const entry = this.#entryOf(row);
    if (!entry) return undefined;
    const base = { id: String(row.id), channel: row.channel, account: row.account, receivedAt: Number(row.receivedAt) };
    const event = row.event as InboundMessageEvent | InboundReactionEvent;
    if (event.type === "reaction") {
      const known = await this.options.index.get({
        channel: row.channel,
        accountId: row.account,
        conversationId: event.target.conversationId,
        messageId: event.target.messageId,
      });
      const fromBot = known?.fromBot === true || event.target.fromBot === true;
      const bot = entry.supervisor.instance?.identity?.();
      if (!shouldNotify({ ...event, target: { ...event.target, fromBot } }, entry.settings, bot?.id)) return undefined;
      const { type: _type, target, ...rest } = event;
      return { ...base, type: "reaction", ...rest, messageId: target.messageId, fromBot };
    }
    if (!(await this.#allowed(entry, event))) return undefined;
    const { type: _type, ref, attachments, ...rest } = event;
    const shown = attachments?.length ? await this.#stored(entry, row.id, event, signal) : undefined;
    return {
      ...base,
      type: "message",
      ...(row.sessionKey ? { sessionKey: row.sessionKey } : {}),
      ...rest,
      ...(shown ? { attachments: shown } : {}),
      messageId: ref.messageId,
    };
  }

  /**
   * An inbound message's attachments as `recent_messages` shows them: stored (as on the stream)
   * when the access rules let its sender in; otherwise nothing is downloaded and each says so.
   */
  async attachments(message: InboxMessage, signal?: AbortSignal): Promise<AttachmentView[]> {
    const all = message.event.attachments ?? [];
    const entry = this.#entryOf(message);
    if (!entry) return all.map(withoutSource);
    if (!(await this.#allowed(entry, message.event))) return refusedViews(all);
    return this.#stored(entry, message.id, message.event, signal);
  }

  #entryOf(row: { channel: string; account: string }): ChannelEntry | undefined {
    return this.options.registry.all().find((e) => e.plugin.id === row.channel && e.accountId === row.account);
  }

  async #allowed(entry: ChannelEntry, event: InboundMessageEvent): Promise<boolean> {
    const bot = entry.supervisor.instance?.identity?.();
    const access = await checkAccess({
      channel: entry.plugin.id,
      accountId: entry.accountId,
      conversation: event.conversation,
      sender: event.sender,
      settings: entry.settings,
      ...(bot ? { bot } : {}),
      pairing: {
        isApproved: (...args) => this.options.pairing.isApproved(...args),
        request: () => Promise.reject(new ChorusError("E_RATE_LIMITED", "the event stream issues no pairing codes")),
      },
    });
    return access.allowed;
  }

  /** The message's attachments, stored through the intake first (each downloaded at most once). */
  async #stored(
    entry: ChannelEntry,
    row: number,
    event: InboundMessageEvent,
    signal: AbortSignal | undefined,
  ): Promise<AttachmentView[]> {
    const all = event.attachments ?? [];
    const { media } = this.options;
    if (!media) return all.map(withoutSource);
    const items = await media.of({ source: entry, row, event, signal }).stored();
    return all.map((attachment, index) => attachmentView(attachment, items[index]));
  }
}
