import type { RecordedRequest, WireMessage, WireUser } from "@chorus/testkit";
import { eventually } from "@chorus/testkit";
import { expect } from "vitest";
import type { FakeChatRequest } from "../../src/testing/index.js";
import { readSessionsOnDisk } from "./faults-state.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "./gateway-process.js";
import { createModelWorld, type ModelWorld } from "./memory-setup.js";

/** The people of the test groups (the same as in `memory-setup.ts`). */
export const ANN: WireUser = { id: "ann", name: "Ann", phone: "+4915100000001" };
export const BOB: WireUser = { id: "bob", name: "Bob", phone: "+4915100000002" };

/** A memory platform, the fake model and one real `chorus start` process configured for them. */
export interface GroupsHarness {
  world: ModelWorld;
  gateway: GatewayProcess;
  /** Adds a group with Ann and Bob (and the bot); `title: null` leaves the group without a name. */
  group(id: string, title?: string | null): string;
  /** Adds a direct chat with `user`. */
  dm(id: string, user?: WireUser): string;
  /** The bot's messages in a conversation, oldest first. */
  botMessages(conversationId: string): WireMessage[];
  /** Waits for the bot to post `text` in a conversation and returns that message. */
  botSays(conversationId: string, text: string | RegExp, timeoutMs?: number): Promise<WireMessage>;
  /** Waits until the session `key` has committed `turns` turns to sessions.json (the commit follows the turn's reactions). */
  committed(key: string, turns: number): Promise<void>;
  /** Model requests from index `mark` on (`mark` = `world.model.requests.length` taken earlier). */
  requestsSince(mark: number): FakeChatRequest[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Extra `channels.memory` keys. */
  memory?: Record<string, unknown>;
  /** Extra top-level config keys. */
  extra?: Record<string, unknown>;
  /** `agents.defaults` keys (typingMode, heartbeat, …). */
  defaults?: Record<string, unknown>;
}

/** Starts the memory platform, the fake model and the real gateway process with the given config. */
export async function startHarness(options: HarnessOptions = {}): Promise<GroupsHarness> {
  const world = await createModelWorld();
  let gateway: GatewayProcess;
  try {
    const config = world.config(options);
    if (options.defaults) config.agents = { ...(config.agents as object), defaults: options.defaults };
    gateway = await startGatewayProcess({ config });
  } catch (error) {
    await world.close();
    throw error;
  }
  const botMessages = (conversationId: string) =>
    world.platform.messagesIn(conversationId).filter((m) => m.senderId === world.platform.bot.id);
  return {
    world,
    gateway,
    group(id, title = "Family") {
      world.platform.addConversation({ id, kind: "group", ...(title === null ? {} : { title }), members: [ANN, BOB] });
      return id;
    },
    dm(id, user = ANN) {
      world.platform.addConversation({ id, kind: "direct", members: [user] });
      return id;
    },
    botMessages,
    async botSays(conversationId, text, timeoutMs = 10_000) {
      const matches = (m: WireMessage) => (typeof text === "string" ? m.text === text : text.test(m.text));
      return eventually(
        () => {
          const found = botMessages(conversationId).find(matches);
          expect(found, `the bot's messages in ${conversationId}`).toBeDefined();
          return found as WireMessage;
        },
        { timeoutMs },
      );
    },
    async committed(key, turns) {
      await eventually(async () => expect((await readSessionsOnDisk(gateway.home))[key]?.turns).toBe(turns), {
        timeoutMs: 10_000,
      });
    },
    requestsSince: (mark) => world.model.requests.slice(mark),
    async close() {
      await gateway.stop();
      await world.close();
      await removeHome(gateway.home);
    },
  };
}

/** The text of a message's content (string or text parts). */
function textOf(content: FakeChatRequest["messages"][number]["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => part.text ?? "").join("");
}

/** The user message the model got last in a request (the turn's batch or DM text). */
export function userText(request: FakeChatRequest | undefined): string {
  const user = request?.messages.filter((m) => m.role === "user").at(-1);
  return user === undefined ? "" : textOf(user.content);
}

/** The system prompt of a request. */
export function systemText(request: FakeChatRequest | undefined): string {
  const system = request?.messages.find((m) => m.role === "system");
  return system === undefined ? "" : textOf(system.content);
}

/** Every message text of a request joined (system, history, user, tool results). */
export function allText(request: FakeChatRequest | undefined): string {
  return (request?.messages ?? []).map((m) => textOf(m.content)).join("\n");
}

/** The session key of a group of the memory channel. */
export const groupKey = (groupId: string) => `agent:main:memory:group:${groupId}`;

/** The platform requests that placed or removed the bot's reactions on a message. */
export function reactionRequests(harness: GroupsHarness, messageId: string): RecordedRequest[] {
  return harness.world.platform.server.requests.filter((r) =>
    r.path.startsWith(`/v1/messages/${encodeURIComponent(messageId)}/reactions`),
  );
}

/** The typing requests (`POST /v1/conversations/:id/typing`) of a conversation, with `on`. */
export function typingRequests(harness: GroupsHarness, conversationId: string): (RecordedRequest & { on: boolean })[] {
  return harness.world.platform.server
    .requestsTo("POST", `/v1/conversations/${encodeURIComponent(conversationId)}/typing`)
    .map((r) => ({ ...r, on: (r.body as { on?: unknown }).on === true }));
}

/** The platform request that posted a message of the bot (its arrival time is when the reply was sent). */
export function postOf(harness: GroupsHarness, message: WireMessage): RecordedRequest {
  const post = harness.world.platform.server
    .requestsTo("POST", `/v1/conversations/${encodeURIComponent(message.conversationId)}/messages`)
    .find((r) => (r.body as { text?: unknown }).text === message.text);
  if (!post) throw new Error(`no POST request for the bot's message "${message.text}"`);
  return post;
}
