import { createFakeServer, type FakeServer, outage, type PlatformFault } from "@chorus/testkit";
import { addUserFiles, addUserSticker, type FakeFileInput, type FakeShownFile, shownMessage } from "./fake-media.js";
import { installRoutes } from "./fake-routes.js";
import { FakeBlueBubblesState, type FakeChat, type FakeMessage, ME, POSSIBLE_REACTIONS } from "./fake-state.js";
import { serializeMessage, tapbackText } from "./fake-wire.js";

export interface FakeBlueBubblesOptions {
  /** The server password; default `fake-password`. */
  password?: string;
  /** formidable's `maxFileSize` for uploads; default the server's 1 GiB (tests lower it). */
  maxFileBytes?: number;
}

/** The server's upload limit: koa-body's formidable `maxFileSize` (`api/http/index.ts`). */
export const FAKE_MAX_FILE_BYTES = 1024 * 1024 * 1024;

/** A webhook body as BlueBubbles posts it (`WebhookService.dispatch`). */
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
  userSends(input: { chatGuid: string; from: string; text: string; replyTo?: string | undefined }): FakeHook & {
    guid: string;
  };
  /** Someone sends files (and `text` with them); returns the `new-message` hook (not yet delivered). */
  userSendsMedia(input: {
    chatGuid: string;
    from: string;
    text?: string | undefined;
    files: readonly FakeFileInput[];
  }): FakeHook & { guid: string; attachments: string[] };
  /** Someone places a sticker on a message; returns the `new-message` hook of its row (not yet delivered). */
  userSendsSticker(input: { messageGuid: string; from: string; file: FakeFileInput }): FakeHook & { guid: string };
  /** A message's files as the server keeps them (shown as Messages shows them) and its text; undefined for no such message. */
  shown(messageGuid: string): { files: FakeShownFile[]; text: string } | undefined;
  /**
   * Someone taps back: a kind (`love`, `-love`) or any other emoji (macOS 15's emoji tapbacks,
   * type 2006/3006). The row's type is a name as the server's transformer writes it, or with
   * `numeric` the chat.db number as a string (`"2001"`). Returns the hook; the tapback table
   * changes as the real server's would.
   */
  userTapback(input: { messageGuid: string; from: string; reaction: string; numeric?: boolean }): FakeHook;
  /**
   * Posts `hook` to `url`, or (the platform delivering) to every webhook registered for it;
   * resolves with the statuses. Once, as BlueBubbles does: `WebhookService.dispatch` never posts
   * an event again, whatever the answer (a failure is a debug line in its log).
   */
  deliver(hook: FakeHook, url?: string): Promise<number[]>;
  /** Delivers the last hook the platform delivered again, as after a lost answer. */
  redeliverLast(): Promise<number[]>;
  /** Delivers to the registered webhooks a `new-message` whose message is not one (no `isFromMe`, a numeric GUID). */
  deliverUnparseable(): Promise<number[]>;
  /** Posts a `new-message` carrying `text` to `url` with a wrong `?secret=`; resolves with the status. */
  forgeWebhook(url: string, text: string): Promise<number>;
  /** From now on every request misbehaves like `kind` (refuse, close, hang, garbage), until `heal()`. */
  outage(kind: PlatformFault): void;
  /** Ends every injected fault. */
  heal(): void;
  /** Resolves when every delivery the fake started on its own (echoes of sent messages) is done. */
  settled(): Promise<void>;
  /** The server account's tapback on a message (empty or one kind). */
  botTapbacks(messageGuid: string): string[];
  /** `handle`'s tapback on a message. */
  tapbacksBy(messageGuid: string, handle: string): string[];
  messagesIn(chatGuid: string): FakeMessage[];
  /** The hook body of a stored message, serialised as the real server serialises that event. */
  hookOf(message: FakeMessage, type?: FakeHook["type"]): FakeHook;
}

/** Creates (not yet started) a fake BlueBubbles server. */
export function createFakeBlueBubbles(options: FakeBlueBubblesOptions = {}): FakeBlueBubbles {
  const password = options.password ?? "fake-password";
  const maxFileBytes = options.maxFileBytes ?? FAKE_MAX_FILE_BYTES;
  const state = new FakeBlueBubblesState();
  // Room for a file at the limit and its form around it, so the route answers as formidable does.
  const server = createFakeServer({ maxBodyBytes: maxFileBytes + 1024 * 1024 });
  const pending = new Set<Promise<unknown>>();
  let last: FakeHook | undefined;

  const hookOf = (message: FakeMessage, type: FakeHook["type"] = "new-message"): FakeHook => ({
    type,
    // `handleNewMessage` / `emitMessageMatch` / `handleUpdatedMessage`: chats only on new-message,
    // participants only for rows the API did not send (and then only for groups).
    data: {
      ...serializeMessage(state, message, {
        forWebhook: true,
        includeChats: type === "new-message",
        participants: message.tempGuid === undefined,
      }),
      ...(type === "new-message" && message.tempGuid !== undefined ? { tempGuid: message.tempGuid } : {}),
    },
  });
  const post = async (target: string, body: unknown): Promise<number> => {
    try {
      const response = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      await response.arrayBuffer();
      return response.status;
    } catch {
      return 0; // the gateway is not listening: BlueBubbles just logs it
    }
  };
  const subscribed = (type: string) =>
    state.webhooks.filter((w) => w.events.includes(type) || w.events.includes("*")).map((w) => w.url);
  const deliver = async (hook: FakeHook, url?: string): Promise<number[]> => {
    if (url) return [await post(url, hook)];
    last = hook;
    return Promise.all(subscribed(hook.type).map((target) => post(target, hook)));
  };
  /** The echo the real server posts for what its own account sent. */
  const echo = (message: FakeMessage) => {
    const delivery = deliver(hookOf(message));
    pending.add(delivery);
    void delivery.finally(() => pending.delete(delivery));
  };
  installRoutes({ server, state, password, echo, maxFileBytes });

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
    userSendsMedia: (input) => {
      if (!state.chats.has(input.chatGuid)) throw new Error(`fake BlueBubbles: no chat ${input.chatGuid}`);
      const message = addUserFiles(state, input);
      return { ...hookOf(message), guid: message.guid, attachments: message.attachments ?? [] };
    },
    userSendsSticker: ({ messageGuid, from, file }) => {
      const on = state.messages.get(messageGuid);
      if (!on) throw new Error(`fake BlueBubbles: no message ${messageGuid}`);
      const row = addUserSticker(state, { on, from, file });
      return { ...hookOf(row), guid: row.guid };
    },
    shown: (guid) => {
      const message = state.messages.get(guid);
      return message ? shownMessage(state, message) : undefined;
    },
    userTapback: ({ messageGuid, from, reaction, numeric }) => {
      const target = state.messages.get(messageGuid);
      if (!target) throw new Error(`fake BlueBubbles: no message ${messageGuid}`);
      state.applyTapback(messageGuid, from, reaction);
      const row = state.addMessage({
        chatGuid: target.chatGuid,
        text: tapbackText(reaction, target.text),
        handle: from,
        isFromMe: false,
        associatedMessageGuid: `p:0/${messageGuid}`,
        associatedMessageType: tapbackType(reaction, numeric === true),
      });
      return hookOf(row);
    },
    deliver,
    redeliverLast: async () => (last ? deliver(last) : []),
    deliverUnparseable: () => {
      const broken = { type: "new-message", data: { guid: 42, text: "not a message row", chats: "none" } };
      return Promise.all(subscribed("new-message").map((target) => post(target, broken)));
    },
    forgeWebhook: (url, text) => {
      const chat = [...state.chats.values()][0];
      const forged = new URL(url);
      forged.searchParams.set("secret", "forged-secret-0000000000");
      const message: FakeMessage = {
        rowId: 0,
        guid: state.newGuid(),
        chatGuid: chat?.guid ?? "iMessage;-;+15550009999",
        text,
        handle: chat?.participants[0] ?? "+15550009999",
        isFromMe: false,
        dateCreated: Date.now(),
      };
      return post(forged.toString(), hookOf(message));
    },
    outage: (kind) => server.inject(outage(kind)),
    heal: () => server.clearFaults(),
    settled: async () => {
      await Promise.all(pending);
    },
    botTapbacks: (guid) => state.tapbacksBy(guid, ME),
    tapbacksBy: (guid, handle) => state.tapbacksBy(guid, handle),
    messagesIn: (chatGuid) => [...state.messages.values()].filter((m) => m.chatGuid === chatGuid),
    hookOf,
  };
}

/** `associatedMessageType` as the server writes it: a name, or an unmapped chat.db number as a string. */
function tapbackType(reaction: string, numeric: boolean): string {
  const removed = reaction.startsWith("-");
  const kind = removed ? reaction.slice(1) : reaction;
  const index = (POSSIBLE_REACTIONS as readonly string[]).indexOf(kind);
  // Emoji tapbacks (2006/3006) have no name in `MessageTypeTransformer`: they come as numbers.
  if (index < 0) return String((removed ? 3000 : 2000) + 6);
  return numeric ? String((removed ? 3000 : 2000) + index) : reaction;
}
