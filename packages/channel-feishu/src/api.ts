import { PlatformHttpError } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import * as lark from "@larksuiteoapi/node-sdk";
import { FeishuCode, HINTS } from "./errors.js";
import type { SdkHttpInstance } from "./http.js";
import type { SdkLogger } from "./sdk-logger.js";
import type { TokenCache } from "./token-cache.js";
import type {
  FeishuBotInfo,
  FeishuChat,
  FeishuChatMember,
  FeishuMessage,
  FeishuPage,
  FeishuReaction,
  FeishuUser,
} from "./wire.js";

/** What a message is made of when the bot sends it. */
export interface OutgoingContent {
  msg_type: string;
  /** The content as a JSON string. */
  content: string;
  /** Feishu sends one message per uuid within an hour: a retried request cannot post twice. */
  uuid: string;
}

/** A page size Feishu allows for reaction listings (at most 50). */
const REACTION_PAGE_SIZE = 50;
/** A page size Feishu allows for chat member listings (at most 100). */
const MEMBER_PAGE_SIZE = 100;

/**
 * The Open API calls this channel makes, through the SDK's `Client` (which fetches and refreshes
 * the tenant access token itself) over the kit's HTTP client. Each answer's envelope was checked
 * by the HTTP client already: these return its `data`.
 */
export class FeishuApi {
  readonly client: lark.Client;

  constructor(
    options: { appId: string; appSecret: string; domain: string },
    http: SdkHttpInstance,
    private readonly tokens: TokenCache,
    logger: SdkLogger,
  ) {
    this.client = new lark.Client({
      appId: options.appId,
      appSecret: options.appSecret,
      domain: options.domain,
      appType: lark.AppType.SelfBuild,
      httpInstance: http as unknown as lark.HttpInstance,
      cache: tokens,
      logger,
      loggerLevel: lark.LoggerLevel.info,
    });
  }

  /**
   * The tenant access token the SDK holds, fetched when it has none or it expired: uploads and
   * downloads, which go around the SDK (streamed bodies), carry it.
   */
  async tenantToken(): Promise<string> {
    const manager = this.client.tokenManager as { getTenantAccessToken(): Promise<unknown> };
    const token = await manager.getTenantAccessToken();
    if (typeof token !== "string" || token === "") {
      throw new ChorusError("E_AUTH", "Feishu gave no tenant access token", { hint: HINTS.credentials });
    }
    return token;
  }

  /** Forgets the tenant token after Feishu said it is no longer valid: the next call fetches a fresh one. */
  forgetToken(): void {
    this.tokens.clear();
  }

  /** Who the app's bot is (`GET /open-apis/bot/v3/info`): its open_id tells its mentions apart. */
  async botInfo(): Promise<FeishuBotInfo> {
    const answer = await this.#call(() =>
      this.client.request<{ bot?: FeishuBotInfo }>({ method: "GET", url: "/open-apis/bot/v3/info" }),
    );
    return answer.bot as FeishuBotInfo;
  }

  /** `im.v1.message.create` into a chat. */
  async createMessage(chatId: string, content: OutgoingContent): Promise<FeishuMessage> {
    const answer = await this.#call(() =>
      this.client.im.v1.message.create({
        params: { receive_id_type: "chat_id" },
        data: { receive_id: chatId, ...content },
      }),
    );
    return answer.data as FeishuMessage;
  }

  /** `im.v1.message.reply` to a message, in its topic thread when `inThread`. */
  async replyMessage(messageId: string, content: OutgoingContent, inThread: boolean): Promise<FeishuMessage> {
    const answer = await this.#call(() =>
      this.client.im.v1.message.reply({
        path: { message_id: messageId },
        data: { ...content, ...(inThread ? { reply_in_thread: true } : {}) },
      }),
    );
    return answer.data as FeishuMessage;
  }

  /** `im.v1.message.get`: the message itself (the first item; more only for merged forwards). */
  async getMessage(messageId: string): Promise<FeishuMessage | undefined> {
    const answer = await this.#call(() => this.client.im.v1.message.get({ path: { message_id: messageId } }));
    return (answer.data as { items?: FeishuMessage[] } | undefined)?.items?.[0];
  }

  /** `im.v1.messageReaction.create`. */
  async addReaction(messageId: string, emojiType: string): Promise<FeishuReaction> {
    const answer = await this.#call(() =>
      this.client.im.v1.messageReaction.create({
        path: { message_id: messageId },
        data: { reaction_type: { emoji_type: emojiType } },
      }),
    );
    return answer.data as FeishuReaction;
  }

  /** `im.v1.messageReaction.delete`: only the caller's own reactions can be deleted. */
  async deleteReaction(messageId: string, reactionId: string): Promise<void> {
    await this.#call(() =>
      this.client.im.v1.messageReaction.delete({ path: { message_id: messageId, reaction_id: reactionId } }),
    );
  }

  /** Every reaction on a message (of one `emoji_type` when given), all pages. */
  listReactions(messageId: string, emojiType?: string): Promise<FeishuReaction[]> {
    return this.#allPages<FeishuReaction>((pageToken) =>
      this.client.im.v1.messageReaction.list({
        path: { message_id: messageId },
        params: {
          page_size: REACTION_PAGE_SIZE,
          user_id_type: "open_id",
          ...(emojiType !== undefined ? { reaction_type: emojiType } : {}),
          ...(pageToken !== undefined ? { page_token: pageToken } : {}),
        },
      }),
    );
  }

  /** `im.v1.chat.get`: a chat's name and mode. */
  async chat(chatId: string): Promise<FeishuChat> {
    const answer = await this.#call(() => this.client.im.v1.chat.get({ path: { chat_id: chatId } }));
    return (answer.data ?? {}) as FeishuChat;
  }

  /** `im.v1.chatMembers.get`: every person in a chat, all pages. */
  chatMembers(chatId: string): Promise<FeishuChatMember[]> {
    return this.#allPages<FeishuChatMember>((pageToken) =>
      this.client.im.v1.chatMembers.get({
        path: { chat_id: chatId },
        params: {
          member_id_type: "open_id",
          page_size: MEMBER_PAGE_SIZE,
          ...(pageToken !== undefined ? { page_token: pageToken } : {}),
        },
      }),
    );
  }

  /** `contact.v3.user.get` by open_id; needs a contact scope the app may lack. */
  async user(openId: string): Promise<FeishuUser> {
    const answer = await this.#call(() =>
      this.client.contact.v3.user.get({ path: { user_id: openId }, params: { user_id_type: "open_id" } }),
    );
    return ((answer.data as { user?: FeishuUser } | undefined)?.user ?? {}) as FeishuUser;
  }

  /** The items of every page of a listing: Feishu pages with `has_more` and an opaque `page_token`. */
  async #allPages<T>(page: (pageToken: string | undefined) => Promise<{ data?: unknown }>): Promise<T[]> {
    const all: T[] = [];
    let pageToken: string | undefined;
    do {
      const answer = await this.#call(() => page(pageToken));
      const { items, has_more, page_token } = (answer.data ?? {}) as FeishuPage<T>;
      all.push(...(items ?? []));
      pageToken = has_more && page_token ? page_token : undefined;
    } while (pageToken !== undefined);
    return all;
  }

  /**
   * Runs one SDK call. When Feishu says the tenant token is no longer valid (revoked, or expired
   * before the SDK's own clock said so) the token is forgotten and the call made once more: the
   * SDK then fetches a fresh one.
   */
  async #call<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof PlatformHttpError) || error.platformCode !== String(FeishuCode.invalidToken)) throw error;
      this.tokens.clear();
      return call();
    }
  }
}
