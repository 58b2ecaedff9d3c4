import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { STORE_CONFORMANCE_CASES } from "@chorus/channel-kit/state";
import type { MessageRef } from "@chorus/core";
import { waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freshPostgresDatabase } from "../testing/index.js";
import { MessageIndex } from "./message-index.js";
import { recentMessages } from "./recent-messages.js";
import { type StateConfig, StateStore } from "./state-store.js";

/** One suite, two backends: everything the gateway keeps behaves the same on SQLite and PostgreSQL. */
const BACKENDS: { name: string; config: () => Promise<StateConfig> }[] = [
  { name: "sqlite", config: async () => ({ backend: "sqlite" }) },
  { name: "postgres", config: async () => ({ backend: "postgres", url: await freshPostgresDatabase("state") }) },
];

const ref = (conversationId: string, messageId: string, extra: Partial<MessageRef> = {}): MessageRef => ({
  channel: "telegram",
  accountId: "default",
  conversationId,
  messageId,
  ...extra,
});

describe("several gateways on one PostgreSQL: inbox ids are committed in order", () => {
  it("a commit waits for an earlier one still open, so a reader after id N never passes a later-committed row", async () => {
    const url = await freshPostgresDatabase("inbox_order");
    const home = await mkdtemp(join(tmpdir(), "chorus-state-"));
    const [a, b] = await Promise.all([
      StateStore.open({ backend: "postgres", url }, { home }),
      StateStore.open({ backend: "postgres", url }, { home }),
    ]);
    let release: () => void = () => undefined;
    try {
      const insert = (eventId: string) => ({
        channel: "nextcloud",
        account: "default",
        eventId,
        sessionKey: "s",
        event: { type: "message", eventId },
        refs: [],
      });
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted: (ids: (number | undefined)[]) => void = () => undefined;
      const insertedFirst = new Promise<(number | undefined)[]>((resolve) => {
        inserted = resolve;
      });
      // Gateway A has its row's id and has not committed yet (a slow fsync, a busy event loop).
      const slow = a.db.tx(async (sql) => {
        inserted(await a.inbox.acceptIn(sql, [insert("first")], 1));
        await held;
      });
      const [firstId] = await insertedFirst;
      // Gateway B's commit of a later message waits for it instead of landing before it.
      const fast = b.inbox.accept([insert("second")], 2);
      await waitFor(
        async () =>
          Number(
            (
              await b.db.one<{ n: number }>(
                "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
              )
            )?.n ?? 0,
          ) === 1,
        { timeoutMs: 5_000, message: "B waiting for A's inbox commit" },
      );
      expect(await b.inbox.after(0, 10)).toEqual([]);
      release();
      await slow;
      const [secondId] = await fast;
      expect(secondId as number).toBeGreaterThan(firstId as number);
      expect((await b.inbox.after(0, 10)).map((row) => row.eventId)).toEqual(["first", "second"]);
    } finally {
      release();
      await Promise.all([a.close(), b.close()]);
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe.each(BACKENDS)("the state layer on $name", ({ config }) => {
  let home: string;
  let state: StateStore;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "chorus-state-"));
    state = await StateStore.open(await config(), { home, refsPerConversation: 60 });
  });
  afterEach(async () => {
    await state.close();
    await rm(home, { recursive: true, force: true });
  });

  describe("a channel's ctx.store passes the kit's STORE_CONFORMANCE_CASES", () => {
    for (const conformance of STORE_CONFORMANCE_CASES) {
      it(conformance.name, async () => {
        let now = 1_700_000_000_000;
        const store = state.channelStore("telegram", "default", () => now);
        await conformance.run(store, { advance: (ms) => (now += ms) });
      });
    }
    it("keeps accounts apart", async () => {
      await state.channelStore("telegram", "a").set("k/1", 1);
      expect(await state.channelStore("telegram", "b").get("k/1")).toBeUndefined();
      expect(await state.channelStore("telegram", "a").get("k/1")).toBe(1);
    });
  });

  it("keeps session entries by key and agent, replacing one per write", async () => {
    const entry = (key: string, turns: number) => ({ key, sessionId: `s-${key}`, agentId: "main", turns });
    await state.db.tx((sql) =>
      state.sessions.save(
        sql,
        [
          { key: "agent:main:a", agentId: "main", entry: entry("agent:main:a", 1) },
          { key: "agent:other:b", agentId: "other", entry: entry("agent:other:b", 0) },
        ],
        1,
      ),
    );
    await state.db.tx((sql) =>
      state.sessions.save(sql, [{ key: "agent:main:a", agentId: "main", entry: entry("agent:main:a", 2) }], 2),
    );
    expect(await state.sessions.ofAgent("main")).toEqual([entry("agent:main:a", 2)]);
    expect(await state.sessions.get("agent:other:b")).toEqual(entry("agent:other:b", 0));
    expect(await state.sessions.count()).toBe(2);
  });

  it("appends transcripts, reads the last N in order, and fills in a sent reply's id", async () => {
    const ids = await state.db.tx((sql) =>
      state.transcripts.append(
        sql,
        "s1",
        Array.from({ length: 5 }, (_, i) => ({ role: "user", content: `m${i}`, at: "x" })),
      ),
    );
    await state.db.tx((sql) => state.transcripts.setMessageId(sql, ids[4] as number, "platform-9"));
    expect((await state.transcripts.read("s1", 2)).map((e) => [e.content, e.messageId])).toEqual([
      ["m3", undefined],
      ["m4", "platform-9"],
    ]);
    expect(await state.transcripts.read("s1")).toHaveLength(5);
    await state.db.tx((sql) => state.transcripts.replace(sql, "s1", [{ role: "system", content: "sum", at: "x" }]));
    expect((await state.transcripts.read("s1")).map((e) => e.content)).toEqual(["sum"]);
    expect(await state.transcripts.read("other")).toEqual([]);
  });

  it("indexes message refs, bounded per conversation, oldest dropped", async () => {
    const index = new MessageIndex({ db: state.db, refs: state.refs });
    for (let i = 0; i < 200; i++) index.put(ref("c1", `m${i}`, { data: { n: i } }));
    index.put(ref("c2", "x", { fromBot: true }));
    expect(
      await index.get({ channel: "telegram", accountId: "default", conversationId: "c2", messageId: "x" }),
    ).toEqual(ref("c2", "x", { fromBot: true }));
    await index.flush();
    const lookup = (messageId: string) => ({
      channel: "telegram",
      accountId: "default",
      conversationId: "c1",
      messageId,
    });
    expect(await index.get(lookup("m199"))).toEqual(ref("c1", "m199", { data: { n: 199 } }));
    expect(await index.get(lookup("m0"))).toBeUndefined();
    const kept = await state.db.one<{ n: number }>("SELECT count(*) AS n FROM message_refs WHERE conversation = 'c1'");
    expect(kept?.n).toBeGreaterThanOrEqual(60);
    expect(kept?.n).toBeLessThanOrEqual(60 + 50);
    await expect(index.get({ ...lookup("m1"), channel: "" })).rejects.toMatchObject({ code: "E_INVALID_INPUT" });
  });

  it("commits inbound events once: a redelivery of (channel, account, eventId) is recognised", async () => {
    const insert = (eventId: string, sessionKey: string | null, account = "default") => ({
      channel: "telegram",
      account,
      eventId,
      sessionKey,
      event: { type: "message", eventId },
      refs: [ref("c", eventId)],
    });
    const first = await state.inbox.accept([insert("e1", "s"), insert("e2", "s"), insert("e1", "s")], 1);
    expect(first[0]).toBeTypeOf("number");
    expect(first[1]).toBeTypeOf("number");
    expect(first[2]).toBeUndefined();
    expect(await state.inbox.accept([insert("e2", "s"), insert("e2", "s", "other")], 2)).toEqual([
      undefined,
      expect.any(Number),
    ]);
    expect((await state.inbox.nextRows("s", 1))[0]?.eventId).toBe("e1");
    await state.db.tx((sql) => state.inbox.done(sql, first[0] as number, 3));
    expect((await state.inbox.nextRows("s", 1))[0]?.eventId).toBe("e2");
    expect((await state.inbox.received()).map((r) => r.eventId)).toEqual(["e2", "e2"]);
    expect(await state.inbox.received([{ channel: "telegram", account: "other" }])).toHaveLength(1);
    expect(
      await state.refs.get({ channel: "telegram", accountId: "default", conversationId: "c", messageId: "e1" }),
    ).toEqual(ref("c", "e1"));
    expect(await state.inbox.prune(10)).toBe(1);
    // The dedupe record outlives a prune only within the window: e1 is new again after it.
    expect((await state.inbox.accept([insert("e1", "s")], 11))[0]).toBeTypeOf("number");
  });

  it("names the sessions with rows to handle, and the loose rows (reactions) left since a time", async () => {
    const insert = (eventId: string, sessionKey: string | null, account = "default") => ({
      channel: "telegram",
      account,
      eventId,
      sessionKey,
      event: { type: sessionKey ? "message" : "reaction", eventId },
      refs: [],
    });
    const ids = await state.inbox.accept(
      [insert("m1", "s2"), insert("m2", "s1"), insert("m3", "s2"), insert("m4", "s1", "other"), insert("r1", null)],
      100,
    );
    await state.inbox.accept([insert("r2", null)], 200);
    await state.db.tx((sql) => state.inbox.done(sql, ids[1] as number, 300));
    expect(await state.inbox.receivedSessions()).toEqual([
      { sessionKey: "s2", channel: "telegram", account: "default" },
      { sessionKey: "s1", channel: "telegram", account: "other" },
    ]);
    expect((await state.inbox.receivedLoose(150)).map((row) => row.eventId)).toEqual(["r1"]);
    expect((await state.inbox.receivedLoose(201)).map((row) => row.eventId)).toEqual(["r1", "r2"]);
    expect((await state.inbox.nextRows("s2", 10)).map((row) => row.eventId)).toEqual(["m1", "m3"]);
    expect((await state.inbox.nextRows("s2", 1)).map((row) => row.eventId)).toEqual(["m1"]);
    expect((await state.inbox.nextRows("s2", 10, ids[0])).map((row) => row.eventId)).toEqual(["m3"]);
  });

  it("reads the inbox after an id, in order (the event stream), and knows its bounds", async () => {
    expect(await state.inbox.bounds()).toEqual({ oldest: 0, newest: 0 });
    const insert = (eventId: string) => ({
      channel: "telegram",
      account: "default",
      eventId,
      sessionKey: "s",
      event: { type: "message", eventId },
      refs: [],
    });
    const ids = (await state.inbox.accept([insert("e1"), insert("e2"), insert("e3")], 1)).map(Number);
    expect(await state.inbox.bounds()).toEqual({ oldest: ids[0], newest: ids[2] });
    expect((await state.inbox.after(ids[0] as number, 10)).map((r) => r.eventId)).toEqual(["e2", "e3"]);
    expect((await state.inbox.after(0, 2)).map((r) => r.eventId)).toEqual(["e1", "e2"]);
    expect(await state.inbox.after(ids[2] as number, 10)).toEqual([]);
  });

  it("recent messages: ids and order from the index, texts from the inbox and the outbox", async () => {
    const inbound = (id: string, text: string) => ({
      type: "message",
      eventId: `ev-${id}`,
      conversation: { id: "c", kind: "group" },
      sender: { id: "ann", name: "Ann" },
      text,
      mentions: { bot: false, others: [] },
      ref: ref("c", id),
      timestamp: 1000,
    });
    await state.inbox.accept(
      [
        {
          channel: "telegram",
          account: "default",
          eventId: "ev-m1",
          sessionKey: "s",
          event: inbound("m1", "hi"),
          refs: [ref("c", "m1")],
        },
        {
          channel: "telegram",
          account: "default",
          eventId: "ev-x",
          sessionKey: "s",
          event: inbound("x", "elsewhere"),
          refs: [ref("other", "x")],
        },
      ],
      1,
    );
    const id = await state.db.tx(async (sql) => {
      await state.refs.put(sql, [
        ref("c", "b1", { fromBot: true }),
        ref("c", "b2", { fromBot: true }),
        ref("c", "b3", { fromBot: true }),
      ]);
      // An outside agent's answer: in the session's transcript with its message id, never in the outbox.
      await state.sessions.save(sql, [{ key: "s", agentId: "main", entry: { sessionId: "sid-1" } }], 2);
      await state.transcripts.append(sql, "sid-1", [
        { role: "user", content: "[batch] hi", at: "1970-01-01T00:00:00.001Z", messageId: "m1" },
        { role: "assistant", content: "answered outside", at: "1970-01-01T00:00:00.004Z", messageId: "b3" },
      ]);
      return state.outbox.add(
        sql,
        { sessionKey: "s", channel: "telegram", account: "default", scope: {}, text: "hello Ann", idempotencyKey: "k" },
        2,
      );
    });
    await state.outbox.markSent({ id }, "b1", 3);
    const where = { channel: "telegram", account: "default", conversation: "c" };
    expect(await recentMessages(state.db, where, 10)).toEqual([
      { messageId: "m1", fromBot: false, text: "hi", sender: { id: "ann", name: "Ann" }, at: 1000 },
      { messageId: "b1", fromBot: true, text: "hello Ann", at: 3 },
      // Sent through the API outside any turn: in the index, without its text.
      { messageId: "b2", fromBot: true },
      { messageId: "b3", fromBot: true, text: "answered outside", at: 4 },
    ]);
    expect((await recentMessages(state.db, where, 1)).map((m) => m.messageId)).toEqual(["b3"]);
  });

  it("a fence that throws commits nothing of the batch", async () => {
    await expect(
      state.inbox.accept(
        [{ channel: "t", account: "a", eventId: "e", sessionKey: "s", event: {}, refs: [] }],
        1,
        async () => {
          throw new Error("lease lost");
        },
      ),
    ).rejects.toThrow("lease lost");
    expect(await state.inbox.counts()).toEqual({ received: 0, done: 0 });
  });

  it("records replies before they are sent and marks them sent with the platform's id", async () => {
    const [userId, assistantId] = await state.db.tx((sql) =>
      state.transcripts.append(sql, "s1", [
        { role: "user", content: "q", at: "x" },
        { role: "assistant", content: "a", at: "x" },
      ]),
    );
    const id = await state.db.tx((sql) =>
      state.outbox.add(
        sql,
        {
          sessionKey: "k",
          channel: "telegram",
          account: "default",
          scope: { conversation: { id: "c" } },
          text: "a",
          replyTo: "q1",
          idempotencyKey: "key-1",
          transcriptId: assistantId as number,
        },
        1,
      ),
    );
    expect(userId).toBeLessThan(assistantId as number);
    expect((await state.outbox.pending("k")).map((r) => [r.id, r.text, r.replyTo, r.idempotencyKey])).toEqual([
      [id, "a", "q1", "key-1"],
    ]);
    await state.outbox.markSent({ id, transcriptId: assistantId as number }, "p-42", 2);
    expect(await state.outbox.pending()).toEqual([]);
    expect((await state.transcripts.read("s1")).at(-1)?.messageId).toBe("p-42");
    expect(await state.outbox.get(id)).toMatchObject({ status: "sent", platformId: "p-42" });
  });

  it("leases: one holder at a time, taken over once expired with a higher fencing token", async () => {
    const a = await state.leases.acquire("telegram:default", "gw-a", 60_000, 1_000);
    expect(a).toMatchObject({ holder: "gw-a", token: 1 });
    expect(await state.leases.acquire("telegram:default", "gw-b", 60_000, 2_000)).toBeUndefined();
    expect(await state.leases.acquire("telegram:default", "gw-a", 60_000, 2_000)).toMatchObject({ token: 1 });
    await state.db.tx((sql) => state.leases.fence(sql, "telegram:default", "gw-a", 1, 2_000));
    await state.leases.release("telegram:default", "gw-a", 1);
    const b = await state.leases.acquire("telegram:default", "gw-b", 60_000, 3_000);
    expect(b).toMatchObject({ holder: "gw-b", token: 2 });
    await expect(state.db.tx((sql) => state.leases.fence(sql, "telegram:default", "gw-a", 1, 3_000))).rejects.toThrow(
      /no longer holds/,
    );
    expect((await state.leases.all()).map((l) => l.holder)).toEqual(["gw-b"]);
  });

  it("a named lock is exclusive while held", async () => {
    let inner: unknown;
    const outer = await state.db.withLock("session:x", async () => {
      inner = await state.db.withLock("session:x", async () => "ran");
      return "outer";
    });
    expect(outer).toEqual({ ran: true, value: "outer" });
    // SQLite has one gateway per file, so its lock is taken at once; PostgreSQL refuses a second holder.
    expect(inner).toEqual(state.backend === "postgres" ? { ran: false } : { ran: true, value: "ran" });
  });

  it("shows where it is without the password", () => {
    expect(state.where).not.toMatch(/pw-.*-secret/);
  });
});
