import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redactor } from "@chorus/channel-kit";
import { MemoryStore } from "@chorus/channel-kit/state";
import { ChorusError, silentLogger } from "@chorus/core";
import { createMemoryChannel, createMemoryPlatform, type MemoryPlatform } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MessageIndex } from "../state/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import { accountKey } from "./account-key.js";
import { MessageToolExecutor } from "./message-tool.js";
import { ChannelRegistry } from "./registry.js";
import { ChannelSupervisor } from "./supervisor.js";

describe("MessageToolExecutor", () => {
  let platform: MemoryPlatform;
  let dir: string;
  let registry: ChannelRegistry;
  let supervisor: ChannelSupervisor;
  let tools: MessageToolExecutor;
  let index: MessageIndex;
  let test: TestState;

  beforeEach(async () => {
    platform = createMemoryPlatform();
    await platform.start();
    platform.addConversation({ id: "c1", kind: "group", members: [{ id: "ann", name: "Ann" }] });
    dir = await mkdtemp(join(tmpdir(), "chorus-tools-"));
    const plugin = createMemoryChannel();
    registry = new ChannelRegistry();
    supervisor = new ChannelSupervisor({
      plugin: plugin as never,
      accountId: "default",
      logger: silentLogger,
      context: (signal) => ({
        config: {
          baseUrl: platform.url,
          token: platform.token,
          pollWaitMs: 500,
          retries: 0,
          maxRetryAfterMs: 0,
          timeoutMs: 5_000,
        },
        accountId: "default",
        store: new MemoryStore(),
        stateDir: join(dir, "state"),
        logger: silentLogger,
        signal,
        emit: async () => {},
        http: { route: () => {}, url: (path) => path },
      }),
    });
    registry.add({
      plugin: plugin as never,
      capabilities: plugin.capabilities,
      accountId: "default",
      key: accountKey(plugin.id, "default"),
      builtin: false,
      settings: {},
      supervisor,
      redactor: new Redactor(),
    });
    await supervisor.start();
    test = await openTestState(undefined, dir);
    index = new MessageIndex({ db: test.state.db, refs: test.state.refs });
    tools = new MessageToolExecutor(registry, index);
  });

  afterEach(async () => {
    await supervisor.stop();
    await platform.close();
    // The index writes in the background: let it finish before the directory goes.
    await index.flush();
    await test.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("inside a turn, react defaults to the conversation and the message being answered", async () => {
    const message = platform.userSends({ conversationId: "c1", senderId: "ann", text: "hi" });
    const ref = { channel: "memory", accountId: "default", conversationId: "c1", messageId: message.id };
    const scope = { channel: "memory", accountId: "default", conversation: { id: "c1" }, message: ref };
    const result = await tools.execute({ action: "react", emoji: ":+1:" }, scope);
    expect(result).toEqual({ ok: true, action: "react", op: "add", emoji: "👍" });
    expect(platform.botReactions(message.id)).toEqual(["👍"]);
  });

  it("inside a turn, the message being answered is reacted to and quoted by the turn's own ref, without a lookup", async () => {
    const message = platform.userSends({ conversationId: "c1", senderId: "ann", text: "hi" });
    const ref = { channel: "memory", accountId: "default", conversationId: "c1", messageId: message.id };
    const scope = { channel: "memory", accountId: "default", conversation: { id: "c1" }, message: ref };
    const lookups: string[] = [];
    const get = index.get.bind(index);
    index.get = (lookup) => {
      lookups.push(lookup.messageId);
      return get(lookup);
    };
    await tools.execute({ action: "react", emoji: "👍" }, scope);
    const sent = await tools.execute({ action: "send", text: "yes", replyTo: message.id }, scope);
    expect(platform.botReactions(message.id)).toEqual(["👍"]);
    expect(lookups).toEqual([]);
    // Another message of the conversation is still looked up.
    const messageId = sent.action === "send" ? sent.messageId : "";
    await tools.execute({ action: "react", emoji: "🔥", messageId }, scope);
    expect(lookups).toEqual([messageId]);
    expect(platform.botReactions(messageId)).toEqual(["🔥"]);
  });

  it("outside a turn, it needs channel, target and messageId, and says which is missing", async () => {
    await expect(tools.execute({ action: "react", emoji: "👍" })).rejects.toThrow(
      "channel is required outside a conversation turn",
    );
    await expect(tools.execute({ action: "react", emoji: "👍", channel: "memory" })).rejects.toThrow(
      "target (the conversation id) is required",
    );
    await expect(tools.execute({ action: "react", emoji: "👍", channel: "memory", target: "c1" })).rejects.toThrow(
      "messageId is required outside a conversation turn",
    );
    await expect(tools.execute({ action: "send", text: "x", channel: "telegram", target: "c1" })).rejects.toThrow(
      'unknown channel "telegram"; running channels: memory',
    );
  });

  it("sends, then reacts to and lists the sent message by the id it returned (the index completes the ref)", async () => {
    const sent = await tools.execute({ action: "send", text: "hello", channel: "memory", target: "c1" });
    expect(sent.action).toBe("send");
    const messageId = sent.action === "send" ? sent.messageId : "";
    expect(platform.messagesIn("c1").map((m) => [m.id, m.text])).toEqual([[messageId, "hello"]]);
    await tools.execute({ action: "react", emoji: "🔥", channel: "memory", target: "c1", messageId });
    const listed = await tools.execute({ action: "reactions", channel: "memory", target: "c1", messageId });
    expect(listed).toEqual({ ok: true, action: "reactions", reactions: [{ emoji: "🔥", count: 1, me: true }] });
    const cleared = await tools.execute({ action: "react", emoji: "", channel: "memory", target: "c1", messageId });
    expect(cleared).toMatchObject({ op: "clear", removed: ["🔥"] });
    expect(platform.botReactions(messageId)).toEqual([]);
  });

  it("runs calls on one message one after another, in the order they were made (DESIGN §3)", async () => {
    const message = platform.userSends({ conversationId: "c1", senderId: "ann", text: "hi" });
    const call = { channel: "memory", target: "c1", messageId: message.id } as const;
    // The platform is slow to take the add: a remove made after it must not overtake it.
    platform.server.inject({
      kind: "delay",
      ms: 300,
      match: { method: "PUT", path: "/v1/messages/:id/reactions/:emoji" },
    });
    const add = tools.execute({ ...call, action: "react", emoji: "👍" });
    const remove = tools.execute({ ...call, action: "react", emoji: "👍", remove: true });
    expect(await add).toMatchObject({ op: "add" });
    expect(await remove).toMatchObject({ op: "remove", removed: ["👍"] });
    expect(platform.botReactions(message.id)).toEqual([]);
    const order = platform.server.requests.filter((r) => r.path.includes("/reactions/")).map((r) => r.method);
    expect(order).toEqual(["PUT", "DELETE"]);
  });

  it("an unknown message id is E_MESSAGE_NOT_FOUND from the plugin, not a silent success", async () => {
    const error = await tools
      .execute({ action: "react", emoji: "👍", channel: "memory", target: "c1", messageId: "m999" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChorusError);
    expect((error as ChorusError).code).toBe("E_MESSAGE_NOT_FOUND");
    expect(supervisor.status().state).toBe("running");
  });

  it("a stopped channel is E_DISABLED naming its state", async () => {
    await supervisor.stop();
    await expect(tools.execute({ action: "send", text: "x", channel: "memory", target: "c1" })).rejects.toThrow(
      "Memory (default) is not running: stopped",
    );
  });
});
