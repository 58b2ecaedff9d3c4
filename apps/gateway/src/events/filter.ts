import { ChorusError, type InboundMessageEvent, type InboundReactionEvent } from "@chorus/core";
import { checkAccess, type PairingStore } from "../access/index.js";
import type { ChannelRegistry } from "../channels/index.js";
import { shouldNotify } from "../reaction-notifications/index.js";
import type { InboxRow, MessageIndex } from "../state/index.js";

/** A normalised inbound event as the stream carries it (`data:` of one SSE event). */
export type StreamEvent =
  | ({ id: string; type: "message"; channel: string; account: string; receivedAt: number; sessionKey?: string } & Omit<
      InboundMessageEvent,
      "type" | "eventId" | "ref"
    > & { messageId: string; eventId: string })
  | ({ id: string; type: "reaction"; channel: string; account: string; receivedAt: number } & Omit<
      InboundReactionEvent,
      "type" | "eventId" | "target"
    > & { messageId: string; eventId: string; fromBot: boolean });

export interface EventFilterOptions {
  registry: ChannelRegistry;
  pairing: Pick<PairingStore, "isApproved">;
  index: Pick<MessageIndex, "get">;
}

/**
 * Which inbox rows the stream shows, and how: messages that pass the channel's access rules
 * (`dmPolicy`, `groupPolicy`, allowlists, pairing — read only: the stream never issues a pairing
 * code), reactions that `reactionNotifications` accepts. A row of an account no longer configured
 * is not shown. Live and replayed events go through the same check, as the rules are now.
 */
export class EventFilter {
  constructor(private readonly options: EventFilterOptions) {}

  async view(row: InboxRow): Promise<StreamEvent | undefined> {
    const entry = this.options.registry.all().find((e) => e.plugin.id === row.channel && e.accountId === row.account);
    if (!entry) return undefined;
    const base = { id: String(row.id), channel: row.channel, account: row.account, receivedAt: Number(row.receivedAt) };
    const event = row.event as InboundMessageEvent | InboundReactionEvent;
    const bot = entry.supervisor.instance?.identity?.();
    if (event.type === "reaction") {
      const known = await this.options.index.get({
        channel: row.channel,
        accountId: row.account,
        conversationId: event.target.conversationId,
        messageId: event.target.messageId,
      });
      const fromBot = known?.fromBot === true || event.target.fromBot === true;
      if (!shouldNotify({ ...event, target: { ...event.target, fromBot } }, entry.settings, bot?.id)) return undefined;
      const { type: _type, target, ...rest } = event;
      return { ...base, type: "reaction", ...rest, messageId: target.messageId, fromBot };
    }
    const access = await checkAccess({
      channel: row.channel,
      accountId: row.account,
      conversation: event.conversation,
      sender: event.sender,
      settings: entry.settings,
      ...(bot ? { bot } : {}),
      pairing: {
        isApproved: (...args) => this.options.pairing.isApproved(...args),
        request: () => Promise.reject(new ChorusError("E_RATE_LIMITED", "the event stream issues no pairing codes")),
      },
    });
    if (!access.allowed) return undefined;
    const { type: _type, ref, ...rest } = event;
    return {
      ...base,
      type: "message",
      ...(row.sessionKey ? { sessionKey: row.sessionKey } : {}),
      ...rest,
      messageId: ref.messageId,
    };
  }
}
