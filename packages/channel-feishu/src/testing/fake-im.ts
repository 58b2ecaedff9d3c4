import { randomBytes } from "node:crypto";
import { type FakeResponse, json, type RequestContext } from "@chorus/testkit";
import type { FakeFeishuEvents, FeishuEnvelope } from "./fake-events.js";
import { contentProblem } from "./fake-message-content.js";
import type { FakeResources } from "./fake-resources.js";
import type { FakeFeishuState, FakeMessage, FakeUser } from "./fake-state.js";

/** Feishu's success envelope. */
export const ok = (data: unknown): FakeResponse => json(200, { code: 0, msg: "success", data });

/** Feishu's error envelope, with the log id its answers carry. */
export const fail = (status: number, code: number, msg: string): FakeResponse =>
  json(status, { code, msg, error: { log_id: `${Date.now()}${randomBytes(6).toString("hex").toUpperCase()}` } });

/** The request body limits Feishu documents: text 150 KB, rich text and cards 30 KB. */
const MAX_BODY_BYTES: Record<string, number> = { text: 150 * 1024, post: 30 * 1024 };

type Ctx = RequestContext<undefined>;

interface SendBody {
  receive_id?: unknown;
  msg_type?: unknown;
  content?: unknown;
  uuid?: unknown;
  reply_in_thread?: unknown;
}

/**
 * Messages the bot sends (create and reply, with `uuid` deduplication and Feishu's checks) and the
 * events the fake pushes: a person's messages and every reaction change, the app's own included.
 */
export class FakeIm {
  /** The message each `uuid` made: a retried request gets it again instead of a second message. */
  readonly #byUuid = new Map<string, FakeMessage>();

  constructor(
    private readonly state: FakeFeishuState,
    private readonly events: FakeFeishuEvents,
    private readonly deliver: (envelope: FeishuEnvelope) => Promise<unknown>,
    private readonly groupMessageScope: () => boolean,
    private readonly botOpenId: string,
    private readonly resources: FakeResources,
  ) {}

  /** `POST /open-apis/im/v1/messages?receive_id_type=chat_id`. */
  create(ctx: Ctx): FakeResponse {
    if (ctx.query.get("receive_id_type") !== "chat_id") return fail(400, 230001, "invalid receive_id_type");
    const body = ctx.json<SendBody>();
    const chat = this.state.chats.get(String(body.receive_id ?? ""));
    if (!chat) return fail(400, 230001, "Your request contains an invalid request parameter, ext=invalid receive_id");
    return this.#send(ctx, body, chat.chat_id, undefined);
  }

  /** `POST /open-apis/im/v1/messages/:message_id/reply`. */
  reply(ctx: Ctx, parent: FakeMessage): FakeResponse {
    if (parent.deleted) return fail(400, 230011, "The message was withdrawn.");
    return this.#send(ctx, ctx.json<SendBody>(), parent.chat_id, parent);
  }

  /** A person writes; resolves once delivered (and acknowledged), or at once when Feishu would not tell the bot. */
  async userSends(message: FakeMessage, sender: FakeUser): Promise<void> {
    const chat = this.state.chats.get(message.chat_id);
    if (!chat?.botIn) return;
    const mentionsBot = (message.mentions ?? []).some((m) => m.id === this.botOpenId);
    // Without the "all group messages" scope, Feishu tells the bot only of messages that @ it.
    if (chat.chat_mode !== "p2p" && !mentionsBot && !this.groupMessageScope()) return;
    await this.deliver(this.events.messageReceived(message, sender));
  }

  /** Pushes a reaction event; the app's own reactions too (Feishu does, and the plugin drops them). */
  reactionChanged(
    action: "created" | "deleted",
    messageId: string,
    emojiType: string,
    operator: { app: string } | { user: FakeUser },
  ): Promise<unknown> {
    return this.deliver(this.events.reactionChanged(action, messageId, emojiType, operator));
  }

  #send(ctx: Ctx, body: SendBody, chatId: string, parent: FakeMessage | undefined): FakeResponse {
    const uuid = typeof body.uuid === "string" ? body.uuid : undefined;
    const earlier = uuid === undefined ? undefined : this.#byUuid.get(uuid);
    if (earlier) return ok(earlier);
    if (!this.state.chats.get(chatId)?.botIn) return fail(400, 230002, "The bot can not be outside the group.");
    const problem = contentProblem(body.msg_type, body.content, this.resources);
    if (problem) return fail(400, problem.code, problem.msg);
    const limit = MAX_BODY_BYTES[String(body.msg_type)] ?? 30 * 1024;
    if (ctx.rawBody.length > limit) return fail(400, 230025, "The length of the message content reaches its limit.");
    const message = this.state.postMessage({
      chatId,
      sender: { id: this.state.appId, id_type: "app_id", sender_type: "app", tenant_key: this.state.tenantKey },
      msgType: String(body.msg_type),
      content: String(body.content),
      ...(parent ? { parentId: parent.message_id, inThread: body.reply_in_thread === true } : {}),
    });
    if (uuid !== undefined) this.#byUuid.set(uuid, message);
    return ok(message);
  }
}
