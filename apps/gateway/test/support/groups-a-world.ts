import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  createMemoryPlatform,
  eventually,
  type MemoryPlatform,
  type WireMessage,
  type WireUser,
} from "@chorus/testkit";
import { expect } from "vitest";
import { createFakeOpenAI, type FakeChatRequest, type FakeOpenAI } from "../../src/testing/index.js";
import { FIXTURES, type GatewayProcess } from "./gateway-process.js";
import { readTranscriptFromState } from "./state-db.js";

export const ANN: WireUser = { id: "ann", name: "Ann", phone: "+4915100000001" };
export const BOB: WireUser = { id: "bob", name: "Bob", phone: "+4915100000002" };
/** The bot's own number on the memory platform (for E.164 mentions). */
export const BOT_PHONE = "+4915199999999";
/** How long a reply through the real process may take. */
export const REPLY_MS = 15_000;

export interface GroupsConfigOptions {
  /** Keys of `channels.memory` (access and group settings); nothing is set by default. */
  memory?: Record<string, unknown>;
  /** Extra keys of `agents.list[0]` (e.g. `groupChat`). */
  agent?: Record<string, unknown>;
  /** Top-level config keys (`messages`, `session`, …). */
  extra?: Record<string, unknown>;
}

/** A memory platform whose bot has a phone number, and a fake model, for the group e2e tests. */
export interface GroupsWorld {
  platform: MemoryPlatform;
  model: FakeOpenAI;
  /** Adds a group of Ann and Bob (the bot joins by itself); returns its id. */
  group(id: string, title?: string): string;
  /** Adds a direct chat with one person; returns its id. */
  direct(id: string, member: WireUser): string;
  /** Gateway config with the gateway's own access defaults unless `memory` sets them. */
  config(options?: GroupsConfigOptions): Record<string, unknown>;
  close(): Promise<void>;
}

/** Starts the platform (bot "Chorus" with {@link BOT_PHONE}) and the fake model. */
export async function createGroupsWorld(): Promise<GroupsWorld> {
  const platform = createMemoryPlatform({ bot: { id: "bot", name: "Chorus", phone: BOT_PHONE, bot: true } });
  await platform.start();
  const model = await createFakeOpenAI({ apiKey: "sk-test" });
  return {
    platform,
    model,
    group(id, title = id) {
      platform.addConversation({ id, kind: "group", title, members: [ANN, BOB] });
      return id;
    },
    direct(id, member) {
      platform.addConversation({ id, kind: "direct", members: [member] });
      return id;
    },
    config: (options = {}) => ({
      plugins: { load: [join(FIXTURES, "memory-channel")] },
      channels: {
        memory: { baseUrl: platform.url, token: platform.token, pollWaitMs: 2000, retries: 1, ...options.memory },
      },
      agents: {
        list: [
          {
            id: "main",
            name: "Chorus",
            model: {
              provider: "openai-compatible",
              baseURL: model.url,
              apiKey: "sk-test",
              model: "fake-model",
              maxRetries: 0,
              timeoutMs: 5000,
            },
            ...options.agent,
          },
        ],
      },
      ...options.extra,
    }),
    async close() {
      await model.close();
      await platform.close();
    },
  };
}

/** Texts the bot posted in a conversation, oldest first. */
export function botTexts(platform: MemoryPlatform, conversationId: string): string[] {
  return platform
    .messagesIn(conversationId)
    .filter((m) => m.senderId === platform.bot.id)
    .map((m) => m.text);
}

/** Waits until the bot posted a message matching `text` in the conversation, and returns it. */
export async function botReply(
  platform: MemoryPlatform,
  conversationId: string,
  text: string | RegExp,
): Promise<WireMessage> {
  const matches = (m: WireMessage) => (typeof text === "string" ? m.text === text : text.test(m.text));
  return eventually(
    () => {
      const found = platform.messagesIn(conversationId).find((m) => m.senderId === platform.bot.id && matches(m));
      expect(
        found,
        `bot message ${String(text)} in ${conversationId}; got ${JSON.stringify(botTexts(platform, conversationId))}`,
      ).toBeDefined();
      return found as WireMessage;
    },
    { timeoutMs: REPLY_MS },
  );
}

function contentText(content: FakeChatRequest["messages"][number]["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => part.text ?? "").join("");
}

/** The system prompt of a model request. */
export function systemOf(request: FakeChatRequest | undefined): string {
  return contentText(request?.messages.find((m) => m.role === "system")?.content);
}

/** The last user message of a model request (the batch of a group turn). */
export function userOf(request: FakeChatRequest | undefined): string {
  return contentText(request?.messages.filter((m) => m.role === "user").at(-1)?.content);
}

/** Role and text of every non-system message of a request (history, then the new user message). */
export function chatOf(request: FakeChatRequest | undefined): [string, string][] {
  return (request?.messages ?? []).filter((m) => m.role !== "system").map((m) => [m.role, contentText(m.content)]);
}

/** Every text any model request carried (system, history, user, tool results). */
export function everythingSent(model: FakeOpenAI): string {
  return model.requests.flatMap((r) => r.messages.map((m) => contentText(m.content))).join("\n");
}

/** The model request whose last user message contains `text`; fails when there is none. */
export function requestWith(model: FakeOpenAI, text: string): FakeChatRequest {
  const found = model.requests.find((r) => userOf(r).includes(text));
  expect(found, `a model request whose user message contains ${JSON.stringify(text)}`).toBeDefined();
  return found as FakeChatRequest;
}

export interface SessionJson {
  sessionId: string;
  turns: number;
  chatType: string;
  settings: Record<string, unknown>;
  [key: string]: unknown;
}

/** `<home>/agents/main/sessions/sessions.json` as stored; `{}` before the first write. */
export async function readSessions(home: string): Promise<Record<string, SessionJson>> {
  try {
    const file = JSON.parse(await readFile(join(home, "agents", "main", "sessions", "sessions.json"), "utf8"));
    return file.sessions as Record<string, SessionJson>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
}

/** Waits until the session `key` has committed `turns` turns, and returns its entry. */
export async function sessionAfter(home: string, key: string, turns: number): Promise<SessionJson> {
  return eventually(
    async () => {
      const entry = (await readSessions(home))[key];
      expect(entry?.turns, `turns of ${key}`).toBe(turns);
      return entry as SessionJson;
    },
    { timeoutMs: REPLY_MS },
  );
}

/** The transcript lines of a session. */
export async function readTranscript(home: string, sessionId: string): Promise<Record<string, unknown>[]> {
  return readTranscriptFromState(home, sessionId);
}

/** Waits for `count` JSON log lines (`--verbose`) with this `msg` whose fields include `fields`. */
export async function logLines(
  gateway: GatewayProcess,
  msg: string,
  fields: Record<string, unknown>,
  count = 1,
): Promise<Record<string, unknown>[]> {
  return eventually(
    () => {
      const lines = gateway
        .logs()
        .filter((line) => line.msg === msg && Object.entries(fields).every(([k, v]) => line[k] === v));
      expect(lines.length, `${count} "${msg}" log line(s) with ${JSON.stringify(fields)}`).toBeGreaterThanOrEqual(
        count,
      );
      return lines;
    },
    { timeoutMs: REPLY_MS },
  );
}
