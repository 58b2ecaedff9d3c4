// The state cost of one turn (issue 15) in a plain node process, without vitest's worker around it:
// `node apps/gateway/bench/turn-state.mjs [sessions]` after `pnpm build`. The same steps as
// bench/support/state-turn.ts (inbox commit until readable, session + history read, the turn's
// commit, "sent"; the inbox commit's WAL sync runs meanwhile, as in the gateway).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InboxWriter } from "../dist/runtime/inbox.js";
import { rowOf, SessionStore } from "../dist/sessions/store.js";
import { TranscriptStore } from "../dist/sessions/transcript.js";
import { StateStore } from "../dist/state/index.js";
import { TurnCommitter } from "../dist/turn/commit.js";
import { readHistory, recordTurn } from "../dist/turn/transcript.js";

const N = Number(process.argv[2] ?? 100000);
const home = mkdtempSync(join(tmpdir(), "tp-"));
const s = await StateStore.open({ backend: "sqlite" }, { home });
const at = new Date().toISOString();
const KEY = (i) => `agent:main:telegram:group:-100${String(i).padStart(9, "0")}`;
for (let st = 0; st < N; st += 500) {
  const a = [],
    v = [],
    ta = [],
    tv = [];
  for (let i = st; i < Math.min(N, st + 500); i++) {
    const e = {
      key: KEY(i),
      sessionId: `s-${i}`,
      agentId: "main",
      channel: "telegram",
      accountId: "default",
      conversationId: `-100${String(i).padStart(9, "0")}`,
      chatType: "group",
      createdAt: at,
      updatedAt: at,
      turns: 1,
      settings: {},
    };
    v.push(`($${a.length + 1},$${a.length + 2},$${a.length + 3},$${a.length + 4})`);
    a.push(e.key, "main", JSON.stringify(e), 1);
    tv.push(`($${ta.length + 1},$${ta.length + 2})`);
    ta.push(e.sessionId, JSON.stringify({ at, role: "user", content: "hi", turnId: "t" }));
  }
  await s.db.tx(async (sql) => {
    await sql.run(`INSERT INTO sessions (key, agent_id, entry, updated_at) VALUES ${v.join(",")}`, a);
    await sql.run(`INSERT INTO transcripts (session_id, entry) VALUES ${tv.join(",")}`, ta);
  });
}
const store = await SessionStore.open(s, "main", mkdtempSync(join(tmpdir(), "tpm-")), { onWarning: () => {} });
const transcripts = new TranscriptStore(s);
let sent = 0;
const committer = new TurnCommitter(
  s,
  { execute: async () => ({ ok: true, action: "send", messageId: `o${++sent}` }) },
  { warn: () => {} },
);
const inbox = new InboxWriter(s);
const total = [],
  parts = { inbox: [], durable: [], read: [], commit: [], sent: [] };
for (let t = 0; t < 4000; t++) {
  const i = (t * 7919) % N,
    key = KEY(i),
    cid = `-100${String(i).padStart(9, "0")}`;
  const ref = { channel: "telegram", accountId: "default", conversationId: cid, messageId: `in-${t}` };
  const t0 = performance.now();
  let t1 = 0;
  let readable;
  const committed = new Promise((resolve) => {
    readable = resolve;
  });
  const durable = inbox
    .accept(
      "telegram",
      "default",
      {
        type: "message",
        eventId: `b${t}`,
        conversation: { id: cid, kind: "group" },
        sender: { id: "u", name: "Ann" },
        text: "hello",
        mentions: { bot: true, others: [] },
        ref,
        timestamp: 0,
      },
      key,
      (rowId) => {
        t1 = performance.now();
        readable(rowId);
      },
    )
    .then(() => performance.now());
  const id = await committed;
  await store.refresh(key);
  const session = store.get(key);
  await readHistory(transcripts, session.sessionId, 40);
  const t2 = performance.now();
  const rec = recordTurn({
    store,
    session,
    userText: "Ann: hello",
    trigger: { ref, senderName: "Ann", text: "hello" },
    result: undefined,
    reply: "hi",
    introduced: false,
  });
  const out = await committer.commit({
    sessionKey: key,
    inboxId: id,
    transcript: { sessionId: session.sessionId, entries: rec.entries },
    sessions: [rowOf(rec.session)],
    replies: [
      { text: "hi", scope: { channel: "telegram", accountId: "default", conversation: { id: cid } }, entryIndex: 1 },
    ],
  });
  store.committed(rec.session);
  const t3 = performance.now();
  await committer.deliver(out);
  const t4 = performance.now();
  const durableAt = await durable;
  if (t >= 500) {
    parts.durable.push(durableAt - t0);
    total.push(t4 - t0);
    parts.inbox.push(t1 - t0);
    parts.read.push(t2 - t1);
    parts.commit.push(t3 - t2);
    parts.sent.push(t4 - t3);
  }
}
const p = (a, f) => {
  const x = [...a].sort((m, n) => m - n);
  return x[Math.ceil(f * x.length) - 1].toFixed(3);
};
console.log(
  `state cost of one turn at ${N} sessions, SQLite, plain node: total p50 ${p(total, 0.5)} p99 ${p(total, 0.99)} | inbox readable ${p(parts.inbox, 0.5)}/${p(parts.inbox, 0.99)} (durable ${p(parts.durable, 0.5)}/${p(parts.durable, 0.99)}) read ${p(parts.read, 0.5)}/${p(parts.read, 0.99)} commit ${p(parts.commit, 0.5)}/${p(parts.commit, 0.99)} sent ${p(parts.sent, 0.5)}/${p(parts.sent, 0.99)}`,
);
await store.flush();
await s.close();
