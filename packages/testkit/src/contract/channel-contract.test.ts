import { BotReactionRecord } from "@chorus/channel-kit";
import { type ChannelInstance, type ChannelPlugin, ChorusError, type ReactionIntent } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { createMemoryChannel, type MemoryConfig } from "../memory/index.js";
import { describeChannelContract } from "../vitest.js";
import { CANARY, memoryFixture } from "./memory-fixture.test-util.js";
import { openContractSession, runChannelContract } from "./run.js";

describeChannelContract("memory channel: the whole channel contract", {
  plugin: createMemoryChannel(),
  setup: () => memoryFixture(),
  stepTimeoutMs: 10_000,
});

/** A plugin made from the memory channel with one instance method replaced. */
function variant(
  change: (instance: ChannelInstance, ctx: Parameters<ChannelPlugin<MemoryConfig>["create"]>[0]) => ChannelInstance,
  log?: (ctx: Parameters<ChannelPlugin<MemoryConfig>["create"]>[0]) => void,
): ChannelPlugin<MemoryConfig> {
  const base = createMemoryChannel();
  return {
    ...base,
    create: async (ctx) => {
      log?.(ctx);
      return change(await base.create(ctx), ctx);
    },
  };
}

/** A plugin that clears through its own record of what it added, kept where `record` says. */
function clearingByRecord(record: "memory" | "store", serialised = true): ChannelPlugin<MemoryConfig> {
  return variant((instance, ctx) => {
    const inMemory = new Map<string, string[]>();
    const stored = new BotReactionRecord(ctx.store);
    const held = async (ref: { conversationId: string; messageId: string }) =>
      record === "store" ? stored.held(ref) : (inMemory.get(ref.messageId) ?? []);
    const hold = async (ref: { conversationId: string; messageId: string }, emoji: string[]) => {
      if (record === "store") await stored.hold(ref, emoji);
      else inMemory.set(ref.messageId, emoji);
    };
    // A call reads the record, calls the platform and writes the record: alone on its message, or not.
    const alone = <T>(ref: { conversationId: string; messageId: string }, call: () => Promise<T>) =>
      serialised ? stored.exclusive(ref, call) : call();
    return {
      ...instance,
      react: (ref, intent: ReactionIntent) => alone(ref, () => react(ref, intent)),
    };
    async function react(ref: Parameters<typeof instance.react>[0], intent: ReactionIntent) {
      if (intent.op !== "clear") {
        // Read before the platform call, written after it: what a call read may be stale by then.
        const now = await held(ref);
        const result = await instance.react(ref, intent);
        const emoji = result.emoji ?? "";
        await hold(
          ref,
          intent.op === "add" ? [...now.filter((e) => e !== emoji), emoji] : now.filter((e) => e !== emoji),
        );
        return result;
      }
      const removed = await held(ref);
      for (const emoji of removed) await instance.react(ref, { op: "remove", emoji });
      await hold(ref, []);
      return { ok: true, action: "react", op: "clear", removed } as const;
    }
  });
}

const failedCases = async (plugin: ChannelPlugin<MemoryConfig>) => {
  const results = await runChannelContract({ plugin, setup: () => memoryFixture(), stepTimeoutMs: 10_000 });
  expect(results.length).toBeGreaterThan(20);
  return results.filter((r) => !r.ok);
};

describe("the channel contract catches plugins that break its rules", () => {
  it("passes a plugin that keeps its reaction record in ctx.store", async () => {
    expect(await failedCases(clearingByRecord("store"))).toEqual([]);
  }, 120_000);

  it("fails a plugin whose reaction calls on one message interleave (its record no longer matches the platform)", async () => {
    const failed = await failedCases(clearingByRecord("store", false));
    expect(failed.map((f) => f.name)).toEqual([
      "concurrent calls on one message leave the bot reaction record matching the platform",
    ]);
    expect(failed[0]?.message).toMatch(
      /the bot reaction record says .*, the platform shows .*: calls on one message interleaved/,
    );
  }, 120_000);

  it("fails a plugin that loses its reaction record on restart", async () => {
    const failed = await failedCases(clearingByRecord("memory"));
    expect(failed.map((f) => f.name)).toEqual(["restart: clearAll after a restart removes every reaction of the bot"]);
    expect(failed[0]?.message).toMatch(/after clearAll after a restart: expected no reactions, the platform shows \[/);
  }, 120_000);

  it("fails a plugin that acknowledges a delivery before the gateway committed it", async () => {
    // Its emits report success at once (the platform's cursor moves on) whatever the commit does.
    const early: ChannelPlugin<MemoryConfig> = {
      ...createMemoryChannel(),
      create: (ctx) =>
        createMemoryChannel().create({
          ...ctx,
          emit: (event) => {
            ctx.emit(event).catch(() => undefined);
            return Promise.resolve();
          },
        }),
    };
    const failed = await failedCases(early);
    expect(failed.map((f) => f.name)).toEqual([
      "inbound: an event whose commit fails is not acknowledged — delivered or emitted again until it is committed, once",
    ]);
    expect(failed[0]?.message).toMatch(
      /the host failed the commit of "contract commit refused \w+" once and it was never emitted again: the platform was told it was received before the commit/,
    );
  }, 120_000);

  it("fails a plugin that leaks a secret into its log", async () => {
    const leaky = variant(
      (instance) => instance,
      (ctx) => ctx.logger.info({ token: ctx.config.token }, "starting"),
    );
    const failed = await failedCases(leaky);
    expect(failed.map((f) => f.name)).toEqual([
      "secrets: against an unreachable platform, no secret appears in the start error, the status or the log",
      "secrets: no secret appears in any error, status, event or log line of the whole run",
    ]);
    expect(failed[1]?.message).toContain('a info log line "starting" (secret ca…9c)');
    expect(failed.map((f) => f.message).join(" ")).not.toContain(CANARY);
  }, 120_000);

  it("fails a plugin whose error carries a secret only in its cause", async () => {
    const causing = variant((instance, ctx) => ({
      ...instance,
      async send(conversation, message) {
        try {
          return await instance.send(conversation, message);
        } catch {
          // The bug: the client library's own error, with the token in its URL, kept as the cause.
          const cause = new Error(`request to ${ctx.config.baseUrl}/bot${ctx.config.token}/send failed`);
          throw new ChorusError("E_PLATFORM", "the platform could not be reached", { cause });
        }
      },
    }));
    const failed = await failedCases(causing);
    expect(failed.map((f) => f.name)).toContain(
      "secrets: no secret appears in any error, status, event or log line of the whole run",
    );
    expect(failed.map((f) => f.message).join(" ")).not.toContain(CANARY);
  }, 120_000);

  it("fails a plugin that crashes on a closed socket (an error escapes it)", async () => {
    const crashing = variant((instance) => ({
      ...instance,
      async send(conversation, message) {
        try {
          return await instance.send(conversation, message);
        } catch (error) {
          // The bug: a rejection nobody handles, as a client's "close" handler might leave behind.
          void Promise.reject(new Error("contract-probe: the socket closed and nobody caught it"));
          throw error;
        }
      },
    }));
    const failed = await failedCases(crashing);
    expect(failed.map((f) => f.name)).toEqual([
      "faults: no error escaped the plugin (an unhandled rejection or uncaught exception would end the gateway)",
    ]);
    expect(failed[0]?.message).toContain("unhandled rejection: Error: contract-probe: the socket closed");
  }, 120_000);
});

describe("linkAccount", () => {
  it("writes a linked account's credentials into the store before the instance starts", async () => {
    const seen: unknown[] = [];
    const plugin = variant((instance, ctx) => ({
      ...instance,
      async start() {
        seen.push(await ctx.store.get("session"));
        await instance.start();
      },
    }));
    const session = await openContractSession({
      plugin,
      setup: async () => ({ ...(await memoryFixture()), linkAccount: (store) => store.set("session", "linked") }),
    });
    try {
      expect(seen).toEqual(["linked"]);
      await session.harness.restart();
      expect(seen).toEqual(["linked", "linked"]);
    } finally {
      await session.close();
    }
  });
});
