import type { InboundMessageEvent } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StateConfig, StateStore } from "../state/index.js";
import { freshPostgresDatabase, openTestState, type TestState } from "../testing/index.js";
import { GroupContextStore, type TriggeredContext } from "./context-store.js";

const KEY = "agent:main:memory:group:g1";
const OTHER = "agent:main:memory:group:g2";

let test: TestState;
let state: StateStore;
let seq = 0;

function event(text: string, conversation = "g1"): InboundMessageEvent {
  seq++;
  return {
    type: "message",
    eventId: `e${seq}`,
    conversation: { id: conversation, kind: "group" },
    sender: { id: "bob", name: "Bob" },
    text,
    mentions: { bot: false, others: [] },
    ref: { channel: "memory", accountId: "default", conversationId: conversation, messageId: `m${seq}` },
    timestamp: 1_700_000_000_000 + seq,
  };
}

/** Commits a message to the inbox; `buffered` marks it done as context, as the router does. */
async function receive(text: string, status: "buffered" | "done" | "received", key = KEY): Promise<number> {
  const e = event(text, key === KEY ? "g1" : "g2");
  const [id] = await state.inbox.accept(
    [{ channel: "memory", account: "default", eventId: e.eventId, sessionKey: key, event: e, refs: [] }],
    Date.now(),
  );
  if (status !== "received") await state.db.tx((sql) => state.inbox.done(sql, id as number, Date.now(), status));
  return id as number;
}

/** Decides the echo and commits the mark, as the router does with the message's commit. */
async function settle(context: TriggeredContext, batch: string, mentioned: boolean): Promise<boolean> {
  const settled = context.settle(batch, mentioned);
  await state.db.tx(settled.record);
  return settled.echo;
}

const texts = (context: { pending: { text: string }[] }) => context.pending.map((m) => m.text);

/** The same on both backends: several gateways share PostgreSQL. */
const BACKENDS: { name: string; config: () => Promise<StateConfig> }[] = [
  { name: "sqlite", config: async () => ({ backend: "sqlite" }) },
  {
    name: "postgres",
    config: async () => ({ backend: "postgres", url: await freshPostgresDatabase("group_context") }),
  },
];

describe.each(BACKENDS)("on $name", (backend) => {
  beforeEach(async () => {
    test = await openTestState(await backend.config());
    state = test.state;
  });
  afterEach(async () => {
    await test.close();
  });

  describe("GroupContextStore", () => {
    it("a triggered message gets the buffered rows since the last turn, oldest first, and only once", async () => {
      const store = new GroupContextStore(state);
      await receive("one", "buffered");
      await receive("a command", "done");
      await receive("two", "buffered");
      await receive("other group", "buffered", OTHER);
      const trigger = await receive("hey bot", "received");
      const first = await store.triggered(KEY, trigger, 50);
      expect(texts(first)).toEqual(["one", "two"]);
      expect(await settle(first, "batch 1", true)).toBe(false);
      await receive("three", "buffered");
      const next = await receive("again", "received");
      expect(texts(await store.triggered(KEY, next, 50))).toEqual(["three"]);
    });

    it("keeps the last historyLimit of them; 0 takes none", async () => {
      const store = new GroupContextStore(state);
      for (const text of ["a", "b", "c", "d"]) await receive(text, "buffered");
      const trigger = await receive("hey", "received");
      expect(texts(await store.triggered(KEY, trigger, 2))).toEqual(["c", "d"]);
      expect(texts(await store.triggered(KEY, trigger, 0))).toEqual([]);
    });

    it("the same row decided again (a turn cut short) sees the same context and echo memory", async () => {
      const store = new GroupContextStore(state);
      const first = await receive("lol", "received");
      expect(await settle(await store.triggered(KEY, first, 50), "lol batch", false)).toBe(false);
      await receive("ctx", "buffered");
      const second = await receive("lol", "received");
      const once = await store.triggered(KEY, second, 50);
      expect(texts(once)).toEqual(["ctx"]);
      expect(await settle(once, "lol batch", false)).toBe(true);
      const again = await store.triggered(KEY, second, 50);
      expect(texts(again)).toEqual(["ctx"]);
      expect(await settle(again, "lol batch", false)).toBe(true);
    });

    it("echo: the same batch twice without a mention is a repeat; a mention or other text is not", async () => {
      const store = new GroupContextStore(state);
      const decide = async (batch: string, mentioned: boolean) =>
        settle(await store.triggered(KEY, await receive(batch, "received"), 50), batch, mentioned);
      expect(await decide("lol", false)).toBe(false);
      expect(await decide("lol", false)).toBe(true);
      expect(await decide("lol", true)).toBe(false);
      expect(await decide("lol", false)).toBe(true);
      expect(await decide("lol!", false)).toBe(false);
    });

    it("forget (/new, /reset) drops the buffered rows before it and the echo memory", async () => {
      const store = new GroupContextStore(state);
      const first = await receive("lol", "received");
      await settle(await store.triggered(KEY, first, 50), "lol", false);
      await receive("before", "buffered");
      await store.forget(KEY, await receive("/new", "done"));
      await receive("after", "buffered");
      const next = await store.triggered(KEY, await receive("lol", "received"), 50);
      expect(texts(next)).toEqual(["after"]);
      expect(await settle(next, "lol", false)).toBe(false);
    });

    it("is shared: a second connection (another gateway) sees what the first buffered and remembered", async () => {
      const mine = new GroupContextStore(state);
      const theirs = new GroupContextStore(await test.reopen());
      await receive("buffered here", "buffered");
      const trigger = await receive("lol", "received");
      const there = await theirs.triggered(KEY, trigger, 50);
      expect(texts(there)).toEqual(["buffered here"]);
      await settle(there, "lol", false);
      expect(await settle(await mine.triggered(KEY, await receive("lol", "received"), 50), "lol", false)).toBe(true);
    });

    it("buffering is the inbox row's status: done and buffered rows count as done, and both are pruned", async () => {
      await receive("x", "buffered");
      await receive("y", "done");
      expect(await state.inbox.counts()).toEqual({ received: 0, done: 2 });
      expect(await state.inbox.prune(Date.now() + 1)).toBe(2);
    });
  });
});
