import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freshPostgresDatabase } from "../testing/index.js";
import type { InboxInsert } from "./inbox-table.js";
import { queueStats } from "./queue-stats.js";
import { PostgresDb } from "./sql/postgres-db.js";
import { schemaStatements } from "./sql/schema.js";
import type { SqlDb } from "./sql/sql.js";
import { SqliteDb } from "./sql/sqlite-db.js";
import { type StateConfig, StateStore, sqliteFile } from "./state-store.js";
import { repliesTo, traceInbound } from "./trace.js";

/** Both backends: the state a config names, and the same database opened raw (as an older gateway had it). */
const BACKENDS: { name: string; config: () => Promise<StateConfig>; raw(config: StateConfig, home: string): SqlDb }[] =
  [
    {
      name: "sqlite",
      config: async () => ({ backend: "sqlite" }),
      raw: (config, home) => new SqliteDb(sqliteFile(home, config)),
    },
    {
      name: "postgres",
      config: async () => ({ backend: "postgres", url: await freshPostgresDatabase("trace") }),
      raw: (config) => new PostgresDb((config as { url: string }).url, { max: 2 }),
    },
  ];

const insert = (eventId: string, messageId: string, account = "default"): InboxInsert => ({
  channel: "telegram",
  account,
  eventId,
  sessionKey: "agent:main:telegram:dm:ann",
  event: { type: "message", eventId, ref: { messageId }, sender: { id: "ann" }, text: "when do we eat?" },
  refs: [],
  messageId,
});

const reply = (text: string, inboxId?: number) => ({
  sessionKey: "agent:main:telegram:dm:ann",
  channel: "telegram",
  account: "default",
  scope: { channel: "telegram", accountId: "default", conversation: { id: "dm" }, message: { messageId: "m1" } },
  text,
  idempotencyKey: text,
  ...(inboxId !== undefined ? { inboxId } : {}),
});

describe.each(BACKENDS)("an inbound event's fate on its row ($name)", (backend) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });
  const open = async (config: StateConfig, home: string) => {
    const state = await StateStore.open(config, { home });
    cleanup.push(() => state.close());
    return state;
  };
  const newHome = async () => {
    const home = await mkdtemp(join(tmpdir(), "chorus-trace-"));
    cleanup.push(() => rm(home, { recursive: true, force: true }));
    return home;
  };

  it("keeps the outcome, counts redeliveries, links the replies with their attempts; found by message id or event id", async () => {
    const state = await open(await backend.config(), await newHome());
    const [id] = (await state.inbox.accept([insert("e1", "m1")], 1_000)) as [number];
    expect(await state.inbox.accept([insert("e1", "m1")], 2_000)).toEqual([undefined]);
    expect(await state.inbox.accept([insert("e1", "m1")], 3_000)).toEqual([undefined]);
    expect(await queueStats(state.db)).toEqual({ inbox: { backlog: 1, oldestAt: 1_000 }, outbox: { pending: 0 } });

    const [sent, failed, waiting] = await state.db.tx(async (sql) => {
      const ids = [
        await state.outbox.add(sql, reply("We eat at seven.", id), 4_000),
        await state.outbox.add(sql, reply("A second part.", id), 4_000),
        await state.outbox.add(sql, reply("A third part.", id), 4_000),
      ];
      const outcome = { outcome: "replied", agent: "main", provider: "demo", modelMs: 12, turnMs: 20 } as const;
      await state.inbox.done(sql, id, 4_000, "done", outcome);
      return ids as [number, number, number];
    });
    await state.outbox.markSent({ id: sent }, "p-43", 5_000);
    await state.outbox.markFailed(failed, 5_000, "E_PLATFORM: chat not found");
    await state.outbox.markWaiting(waiting, "E_DISABLED: telegram is not running");
    await state.outbox.markWaiting(waiting, "E_DISABLED: telegram is not running");
    expect(await queueStats(state.db)).toEqual({ inbox: { backlog: 0 }, outbox: { pending: 1, oldestAt: 4_000 } });

    const [row] = await traceInbound(state.db, "telegram", "m1");
    expect(row).toMatchObject({
      id,
      eventId: "e1",
      messageId: "m1",
      status: "done",
      receivedAt: 1_000,
      doneAt: 4_000,
      outcome: { outcome: "replied", agent: "main", provider: "demo", modelMs: 12, turnMs: 20 },
      redeliveries: 2,
      redeliveredAt: 3_000,
    });
    expect(await traceInbound(state.db, "telegram", "e1")).toEqual([row]);
    expect(await traceInbound(state.db, "telegram", "m1", "other-account")).toEqual([]);
    expect(await traceInbound(state.db, "slack", "m1")).toEqual([]);
    expect(await repliesTo(state.db, row as NonNullable<typeof row>)).toEqual([
      {
        id: sent,
        status: "sent",
        text: "We eat at seven.",
        platformId: "p-43",
        attempts: 1,
        createdAt: 4_000,
        sentAt: 5_000,
      },
      {
        id: failed,
        status: "failed",
        text: "A second part.",
        error: "E_PLATFORM: chat not found",
        attempts: 1,
        createdAt: 4_000,
        sentAt: 5_000,
      },
      {
        id: waiting,
        status: "pending",
        text: "A third part.",
        error: "E_DISABLED: telegram is not running",
        attempts: 2,
        createdAt: 4_000,
      },
    ]);
  });

  it("a database made before these columns gets them at start; its rows are found by their event and their replies by the message they answer", async () => {
    const config = await backend.config();
    const home = await newHome();
    // The tables as a gateway without outcomes made them, with a handled message and its sent reply.
    const older = backend.raw(config, home);
    await older.tx(async (sql) => {
      for (const statement of schemaStatements(sql.dialect)) await sql.run(statement);
      await sql.run("INSERT INTO meta (key, value) VALUES ('schema', '1')");
      await sql.run(
        `INSERT INTO inbox (channel, account, event_id, session_key, event, status, received_at, done_at)
         VALUES ('telegram', 'default', 'e1', 'agent:main:telegram:dm:ann', $1, 'done', 1000, 2000)`,
        [JSON.stringify(insert("e1", "m1").event)],
      );
      await sql.run(
        `INSERT INTO outbox (session_key, channel, account, scope, text, idempotency_key, status, platform_id, created_at, sent_at)
         VALUES ('agent:main:telegram:dm:ann', 'telegram', 'default', $1, 'We eat at seven.', 'k', 'sent', 'p-43', 1500, 1600)`,
        [JSON.stringify(reply("x").scope)],
      );
    });
    const columns = await older.all<{ name: string }>(
      older.dialect === "sqlite"
        ? "SELECT name FROM pragma_table_info('inbox')"
        : "SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'inbox'",
    );
    expect(columns.map((c) => c.name)).not.toContain("outcome");
    await older.close();

    const state = await open(config, home);
    const [row] = await traceInbound(state.db, "telegram", "m1");
    expect(row).toMatchObject({ eventId: "e1", messageId: "m1", status: "done", redeliveries: 0 });
    expect(row?.outcome).toBeUndefined();
    expect(await repliesTo(state.db, row as NonNullable<typeof row>)).toEqual([
      expect.objectContaining({ status: "sent", platformId: "p-43", text: "We eat at seven.", attempts: 0 }),
    ]);
    // New rows get the new columns; opening again changes nothing.
    const [id] = (await state.inbox.accept([insert("e2", "m2")], 3_000)) as [number];
    await state.db.tx((sql) =>
      state.inbox.done(sql, id, 4_000, "buffered", { outcome: "buffered", reason: "not mentioned" }),
    );
    await state.close();
    const again = await open(config, home);
    expect((await traceInbound(again.db, "telegram", "m2"))[0]?.outcome).toEqual({
      outcome: "buffered",
      reason: "not mentioned",
    });
  });
});
