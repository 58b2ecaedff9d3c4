import { createFakeServer, type FakeResponse, type FakeServer, type RequestContext } from "@chorus/testkit";
import { API_PREFIX } from "../client.js";
import {
  FakeBlueBubblesState,
  type FakeChat,
  type FakeMessage,
  type FakeWebhook,
  ME,
  POSSIBLE_REACTIONS,
} from "./fake-state.js";
import { answer, serializeMessage } from "./fake-wire.js";

export interface FakeBlueBubblesOptions {
  /** The server password; default `fake-password`. */
  password?: string;
}

/** A webhook body as BlueBubbles posts it. */
export interface FakeHook {
  type: "new-message" | "updated-message";
  data: Record<string, unknown>;
}

/** A stateful fake BlueBubbles server on 127.0.0.1: its REST API, and webhook delivery. */
export interface FakeBlueBubbles {
  readonly server: FakeServer;
  readonly state: FakeBlueBubblesState;
  readonly url: string;
  readonly password: string;
  start(): Promise<string>;
  close(): Promise<void>;
  /** The `channels.imessage` block for this server. */
  config(extra?: Record<string, unknown>): Record<string, unknown>;
  /** A chat; a group when its GUID is `iMessage;+;…`. */
  addChat(chat: { guid: string; displayName?: string; participants: string[] }): FakeChat;
  /** Someone writes (optionally an inline reply); returns the `new-message` hook (not yet delivered). */
  userSends(input: { chatGuid: string; from: string; text: string; replyTo?: string }): FakeHook & { guid: string };
  /**
   * Someone taps back (`love`, `-love`); `numeric` writes the type as chat.db does (2000/3000).
   * Returns the hook; the tapback table changes as the real server's would.
   */
  userTapback(input: { messageGuid: string; from: string; reaction: string; numeric?: boolean }): FakeHook;
  /** Posts `hook` to `url`, or to every registered webhook; resolves with the HTTP statuses. */
  deliver(hook: FakeHook, url?: string): Promise<number[]>;
  /** Resolves when every delivery the fake started on its own (echoes of sent messages) is done. */
  settled(): Promise<void>;
  /** The server account's tapback on a message (empty or one kind). */
  botTapbacks(messageGuid: string): string[];
  /** `handle`'s tapback on a message. */
  tapbacksBy(messageGuid: string, handle: string): string[];
  messagesIn(chatGuid: string): FakeMessage[];
  /** The hook body of a stored message. */
  hookOf(message: FakeMessage, type?: FakeHook["type"]): FakeHook;
}

type Ctx = RequestContext<undefined>;

/** Creates (not yet started) a fake BlueBubbles server. */
export function createFakeBlueBubbles(options: FakeBlueBubblesOptions = {}): FakeBlueBubbles {
  const password = options.password ?? "fake-password";
  const state = new FakeBlueBubblesState();
  const server = createFakeServer();
  const pending = new Set<Promise<unknown>>();

  const serialize = (message: FakeMessage) => serializeMessage(state, message);
  const hookOf = (message: FakeMessage, type: FakeHook["type"] = "new-message"): FakeHook => ({
    type,
    data: serialize(message),
  });
  const deliver = async (hook: FakeHook, url?: string): Promise<number[]> => {
    const targets = url ? [url] : state.webhooks.filter((w) => w.events.includes(hook.type)).map((w) => w.url);
    return Promise.all(
      targets.map(async (target) => {
        try {
          const response = await fetch(target, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(hook),
          });
          await response.arrayBuffer();
          return response.status;
        } catch {
          return 0; // the gateway is not listening: BlueBubbles just logs it
        }
      }),
    );
  };
  /** The echo the real server posts for what its own account sent. */
  const echo = (message: FakeMessage) => {
    const delivery = deliver(hookOf(message));
    pending.add(delivery);
    void delivery.finally(() => pending.delete(delivery));
  };

  const authorized = (handler: (ctx: Ctx) => FakeResponse) => (ctx: Ctx) => {
    const given = ctx.query.get("password") ?? ctx.query.get("guid") ?? ctx.query.get("token");
    return given === password ? handler(ctx) : answer(401, "You are not authorized to access this resource");
  };
  const privateApi = (handler: (ctx: Ctx) => FakeResponse) =>
    authorized((ctx) => (state.privateApi ? handler(ctx) : answer(400, "iMessage Private API is not enabled!")));
  const bodyOf = (ctx: Ctx): Record<string, unknown> => {
    const body = ctx.json<unknown>();
    return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  };
  const route = (method: string, path: string, handler: (ctx: Ctx) => FakeResponse) =>
    server.route(method, `${API_PREFIX}${path}`, handler);

  route(
    "GET",
    "/ping",
    authorized(() => answer(200, "Ping received!", "pong")),
  );
  route(
    "GET",
    "/server/info",
    authorized(() =>
      answer(200, "Successfully fetched metadata", {
        os_version: "14.5",
        server_version: "1.9.9",
        private_api: state.privateApi,
        helper_connected: state.privateApi && state.helperConnected,
        detected_icloud: state.account,
        detected_imessage: state.account,
      }),
    ),
  );
  route(
    "GET",
    "/webhook",
    authorized(() => answer(200, "Successfully fetched webhooks!", state.webhooks)),
  );
  route(
    "POST",
    "/webhook",
    authorized((ctx) => {
      const body = bodyOf(ctx);
      const events = Array.isArray(body.events) ? body.events.filter((e): e is string => typeof e === "string") : [];
      if (typeof body.url !== "string" || !/^https?:\/\//u.test(body.url))
        return answer(400, "A valid URL is required");
      if (events.length === 0) return answer(400, "At least one event is required");
      const existing = state.webhooks.find((w) => w.url === body.url);
      const webhook: FakeWebhook = existing ?? { id: state.webhooks.length + 1, url: body.url, events };
      if (!existing) state.webhooks.push(webhook);
      return answer(200, "Successfully created webhook!", webhook);
    }),
  );
  route(
    "DELETE",
    "/webhook/:id",
    authorized((ctx) => {
      const index = state.webhooks.findIndex((w) => w.id === Number(ctx.params.id));
      if (index < 0) return answer(404, "Webhook does not exist");
      state.webhooks.splice(index, 1);
      return answer(200, "Successfully deleted webhook!");
    }),
  );
  route(
    "POST",
    "/message/text",
    authorized((ctx) => {
      const body = bodyOf(ctx);
      const chatGuid = typeof body.chatGuid === "string" ? body.chatGuid : "";
      const method = body.method ?? "apple-script";
      if (!state.chats.has(chatGuid)) return answer(400, "Chat does not exist");
      if (typeof body.message !== "string" || body.message === "") return answer(400, "A message is required");
      if (method !== "apple-script" && method !== "private-api") return answer(400, "Invalid send method");
      if (method === "apple-script" && typeof body.tempGuid !== "string") {
        return answer(400, "A tempGuid is required when sending via AppleScript");
      }
      if (method === "private-api" && !state.privateApi) return answer(400, "iMessage Private API is not enabled!");
      const selected = typeof body.selectedMessageGuid === "string" ? body.selectedMessageGuid : undefined;
      if (selected && method !== "private-api") return answer(400, "Replies require the Private API method");
      if (selected && state.messages.get(selected)?.chatGuid !== chatGuid)
        return answer(400, "Selected message does not exist");
      const message = state.addMessage({
        chatGuid,
        text: body.message,
        isFromMe: true,
        method,
        ...(typeof body.tempGuid === "string" ? { tempGuid: body.tempGuid } : {}),
        ...(selected ? { threadOriginatorGuid: selected } : {}),
      });
      echo(message);
      return answer(200, "Message sent!", serialize(message));
    }),
  );
  route(
    "POST",
    "/message/react",
    privateApi((ctx) => {
      const body = bodyOf(ctx);
      const chatGuid = typeof body.chatGuid === "string" ? body.chatGuid : "";
      const selected = typeof body.selectedMessageGuid === "string" ? body.selectedMessageGuid : "";
      const reaction = typeof body.reaction === "string" ? body.reaction : "";
      const possible = [...POSSIBLE_REACTIONS, ...POSSIBLE_REACTIONS.map((k) => `-${k}`)];
      if (!state.chats.has(chatGuid)) return answer(400, "Chat does not exist");
      if (!possible.includes(reaction)) return answer(400, `Reaction must be one of: ${possible.join(", ")}`);
      if (body.partIndex !== undefined && typeof body.partIndex !== "number")
        return answer(400, "partIndex must be a number");
      const target = state.messages.get(selected);
      if (!target || target.chatGuid !== chatGuid) return answer(400, "Selected message does not exist");
      state.applyTapback(selected, ME, reaction);
      const row = state.addMessage({
        chatGuid,
        text: "",
        isFromMe: true,
        associatedMessageGuid: `p:${typeof body.partIndex === "number" ? body.partIndex : 0}/${selected}`,
        associatedMessageType: reaction,
      });
      echo(row);
      return answer(200, "Reaction sent!", serialize(row));
    }),
  );
  const typing = (on: boolean) =>
    privateApi((ctx) => {
      const guid = ctx.params.guid ?? "";
      if (!state.chats.has(guid)) return answer(404, "Chat does not exist");
      if (on) state.typing.add(guid);
      else state.typing.delete(guid);
      return answer(200, on ? "Started typing!" : "Stopped typing!");
    });
  route("POST", "/chat/:guid/typing", typing(true));
  route("DELETE", "/chat/:guid/typing", typing(false));
  route(
    "GET",
    "/chat/:guid",
    authorized((ctx) => {
      const chat = state.chats.get(ctx.params.guid ?? "");
      if (!chat) return answer(404, "Chat does not exist");
      return answer(200, "Successfully fetched chat!", {
        guid: chat.guid,
        displayName: chat.displayName,
        participants: chat.participants.map((address) => ({ address })),
      });
    }),
  );
  route(
    "GET",
    "/handle/:address",
    authorized((ctx) => {
      const address = ctx.params.address ?? "";
      const known = [...state.chats.values()].some((c) => c.participants.includes(address));
      return known ? answer(200, "Successfully fetched handle!", { address }) : answer(404, "Handle does not exist");
    }),
  );
  route(
    "GET",
    "/message/:guid",
    authorized((ctx) => {
      const message = state.messages.get(ctx.params.guid ?? "");
      return message
        ? answer(200, "Successfully fetched message!", serialize(message))
        : answer(404, "Message does not exist");
    }),
  );

  return {
    server,
    state,
    password,
    get url() {
      return server.url;
    },
    start: () => server.start(),
    close: async () => {
      await Promise.all(pending);
      await server.close();
    },
    config: (extra = {}) => ({ serverUrl: server.url, password, ...extra }),
    addChat: ({ guid, displayName = "", participants }) => {
      const chat: FakeChat = { guid, displayName, participants };
      state.chats.set(guid, chat);
      return chat;
    },
    userSends: ({ chatGuid, from, text, replyTo }) => {
      if (!state.chats.has(chatGuid)) throw new Error(`fake BlueBubbles: no chat ${chatGuid}`);
      const message = state.addMessage({
        chatGuid,
        text,
        handle: from,
        isFromMe: false,
        ...(replyTo ? { threadOriginatorGuid: replyTo } : {}),
      });
      return { ...hookOf(message), guid: message.guid };
    },
    userTapback: ({ messageGuid, from, reaction, numeric }) => {
      const target = state.messages.get(messageGuid);
      if (!target) throw new Error(`fake BlueBubbles: no message ${messageGuid}`);
      state.applyTapback(messageGuid, from, reaction);
      const index = POSSIBLE_REACTIONS.indexOf(reaction.replace(/^-/u, "") as (typeof POSSIBLE_REACTIONS)[number]);
      const type = numeric ? String((reaction.startsWith("-") ? 3000 : 2000) + index) : reaction;
      const row = state.addMessage({
        chatGuid: target.chatGuid,
        text: "",
        handle: from,
        isFromMe: false,
        associatedMessageGuid: `p:0/${messageGuid}`,
        associatedMessageType: type,
      });
      const hook = hookOf(row);
      if (numeric) hook.data.associatedMessageType = Number(type);
      return hook;
    },
    deliver,
    settled: async () => {
      await Promise.all(pending);
    },
    botTapbacks: (guid) => state.tapbacksBy(guid, ME),
    tapbacksBy: (guid, handle) => state.tapbacksBy(guid, handle),
    messagesIn: (chatGuid) => [...state.messages.values()].filter((m) => m.chatGuid === chatGuid),
    hookOf,
  };
}
