import { randomBytes } from "node:crypto";
import type { FakeFeishuState, FakeMessage, FakeUser } from "./fake-state.js";

/** A schema 2.0 event, as Feishu sends it over the long connection and to webhooks. */
export interface FeishuEnvelope {
  schema: "2.0";
  header: {
    event_id: string;
    event_type: string;
    create_time: string;
    token: string;
    app_id: string;
    tenant_key: string;
  };
  event: Record<string, unknown>;
}

/**
 * Builds the events Feishu sends, shaped like the examples in its docs (`im.message.receive_v1`,
 * `im.message.reaction.created_v1` / `deleted_v1`): ids and times as strings, `content` as a
 * JSON string, optional fields left out rather than empty, `user_id` only where granted.
 */
export class FakeFeishuEvents {
  constructor(
    private readonly state: FakeFeishuState,
    private readonly verificationToken: string,
  ) {}

  /** A new envelope with a fresh `event_id` (a redelivery reuses the whole envelope). */
  envelope(eventType: string, event: Record<string, unknown>): FeishuEnvelope {
    return {
      schema: "2.0",
      header: {
        event_id: randomBytes(16).toString("hex"),
        event_type: eventType,
        create_time: String(Date.now()),
        token: this.verificationToken,
        app_id: this.state.appId,
        tenant_key: this.state.tenantKey,
      },
      event,
    };
  }

  /** `im.message.receive_v1` for a person's message. */
  messageReceived(message: FakeMessage, sender: FakeUser): FeishuEnvelope {
    const chat = this.state.chats.get(message.chat_id);
    const mentions = (message.mentions ?? []).map((mention) => {
      const user = this.state.users.get(mention.id);
      return {
        key: mention.key,
        id: {
          union_id: user?.union_id ?? "",
          user_id: user?.user_id ?? "",
          open_id: mention.id,
        },
        name: mention.name ?? "",
        tenant_key: this.state.tenantKey,
      };
    });
    return this.envelope("im.message.receive_v1", {
      sender: {
        sender_id: { union_id: sender.union_id, user_id: sender.user_id, open_id: sender.open_id },
        sender_type: "user",
        tenant_key: this.state.tenantKey,
      },
      message: {
        message_id: message.message_id,
        ...(message.root_id ? { root_id: message.root_id } : {}),
        ...(message.parent_id ? { parent_id: message.parent_id } : {}),
        create_time: message.create_time,
        update_time: message.update_time,
        chat_id: message.chat_id,
        ...(message.thread_id ? { thread_id: message.thread_id } : {}),
        chat_type: chat?.chat_mode === "p2p" ? "p2p" : "group",
        message_type: message.msg_type,
        content: message.body.content,
        ...(mentions.length > 0 ? { mentions } : {}),
        user_agent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Lark/7.30.9 LarkLocale/en_US",
      },
    });
  }

  /** `im.message.reaction.created_v1` / `deleted_v1`; an app's carry `app_id`, a person's `user_id`. */
  reactionChanged(
    action: "created" | "deleted",
    messageId: string,
    emojiType: string,
    operator: { app: string } | { user: FakeUser },
  ): FeishuEnvelope {
    const by =
      "app" in operator
        ? { operator_type: "app", app_id: operator.app }
        : {
            operator_type: "user",
            user_id: {
              union_id: operator.user.union_id,
              user_id: operator.user.user_id,
              open_id: operator.user.open_id,
            },
          };
    return this.envelope(`im.message.reaction.${action}_v1`, {
      message_id: messageId,
      reaction_type: { emoji_type: emojiType },
      ...by,
      action_time: String(Date.now()),
    });
  }
}
