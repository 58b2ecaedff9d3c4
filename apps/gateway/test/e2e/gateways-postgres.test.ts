import { fileURLToPath } from "node:url";
import { createFakeTalk, type FakeBot, type FakeMessage, type FakeTalk } from "@chorus/channel-nextcloud/testing";
import { createFakeTelegram, type FakeTelegram } from "@chorus/channel-telegram/testing";
import { eventually, waitFor } from "@chorus/testkit";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  createFakeOpenAI,
  DEFAULT_HEARTBEAT_PROMPT,
  type FakeOpenAI,
  fakeModelConfig,
  freshPostgresDatabase,
  lastUserText,
} from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { systemText } from "../support/groups-b-harness.js";

/*
 * Several gateways on one PostgreSQL (issue 15): three `chorus start` processes share a database
 * on the test server, with Telegram long polling (one connection: runs under a lease) and a
 * Nextcloud Talk webhook bot (runs everywhere; deliveries spread over the live gateways as a load
 * balancer would) against their fakes. The lease holder is SIGKILLed during a burst.
 */
const TELEGRAM = fileURLToPath(new URL("../../../../packages/channel-telegram", import.meta.url));
const NEXTCLOUD = fileURLToPath(new URL("../../../../packages/channel-nextcloud", import.meta.url));
const GROUPS = [-1003000000001, -1003000000002, -1003000000003];
const SECRET = "gateways-shared-secret-".padEnd(64, "x");
const MODEL_MS = 150;

interface ChannelsAnswer {
  channels: { id: string; account: string; holder: string | null }[];
}

describe("three gateways on one PostgreSQL", () => {
  let telegram: FakeTelegram | undefined;
  let talk: FakeTalk | undefined;
  let model: FakeOpenAI | undefined;
  const gateways: GatewayProcess[] = [];
  afterAll(async () => {
    for (const gateway of gateways) await gateway.stop("SIGKILL");
    await model?.close();
    await telegram?.close();
    await talk?.close();
    for (const gateway of gateways) await removeHome(gateway.home);
  });

  it("the lease holder is killed mid-burst: another takes over within 15 s, 0 messages lost, sessions never run twice at once, never two pollers", async () => {
    const url = await freshPostgresDatabase("gateways");
    telegram = createFakeTelegram();
    await telegram.start();
    for (const [i, id] of GROUPS.entries()) telegram.addChat({ id, type: "supergroup", title: `Group ${i}` });
    talk = createFakeTalk();
    await talk.start();
    talk.addRoom({ token: "team", name: "Team Room" });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    model.inject({ kind: "delay", ms: MODEL_MS, times: Number.POSITIVE_INFINITY });
    const config = {
      plugins: { load: [TELEGRAM, NEXTCLOUD] },
      state: { backend: "postgres", url },
      channels: {
        telegram: {
          ...telegram.config({ pollTimeoutMs: 5_000, reconnectMinMs: 200, reconnectMaxMs: 1_000 }),
          groupPolicy: "open",
          groups: { "*": { requireMention: false } },
          reactionLevel: "off",
        },
        nextcloud: {
          baseUrl: talk.url,
          secret: SECRET,
          botName: "Chorus",
          groupPolicy: "open",
          groups: { "*": { requireMention: false } },
          reactionLevel: "off",
        },
      },
      agents: { list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test" }) }] },
    };
    for (let i = 0; i < 3; i++) gateways.push(await startGatewayProcess({ config }));
    const bot: FakeBot = talk.installBot({
      name: "Chorus",
      secret: SECRET,
      url: `${gateways[0]?.url}/hooks/nextcloud/default`,
    });
    talk.setupBot(bot, "team");

    /** The gateway (alive) that says it holds the Telegram account itself. */
    const holder = async (among: GatewayProcess[]) => {
      for (const gateway of among) {
        const { json } = (await gateway.call("GET", "/v1/channels")) as { json: ChannelsAnswer };
        const account = json.channels.find((c) => c.id === "telegram");
        if (account?.holder?.endsWith(`:${gateway.process.pid}`)) return gateway;
      }
      return undefined;
    };
    let first: GatewayProcess | undefined;
    await waitFor(
      async () => {
        first = await holder(gateways);
        return first !== undefined;
      },
      {
        timeoutMs: 20_000,
        message: "a lease holder",
      },
    );
    const holderOf = first as GatewayProcess;
    const alive = () => gateways.filter((g) => g.process.exitCode === null && g.process.signalCode === null);

    let serial = 0;
    const sentTelegram: ReturnType<FakeTelegram["userSends"]>[] = [];
    const sentTalk: { id: string; text: string }[] = [];
    const burst = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const n = serial++;
        const chatId = GROUPS[n % GROUPS.length] as number;
        sentTelegram.push(
          (telegram as FakeTelegram).userSends({
            chatId,
            from: { id: 800 + (n % 3), is_bot: false, first_name: `U${n % 3}` },
            text: `tg ${chatId} m${n}`,
          }),
        );
        const hook = (talk as FakeTalk).userSends({
          token: "team",
          user: { id: `u${n % 2}`, name: `User ${n % 2}` },
          message: `nc m${n}`,
        });
        sentTalk.push({ id: hook.object.id, text: `nc m${n}` });
        // A load balancer: the delivery goes to one of the live gateways.
        const targets = alive();
        const target = targets[n % targets.length] as GatewayProcess;
        const response = await (talk as FakeTalk).deliver(`${target.url}/hooks/nextcloud/default`, bot, hook);
        expect(response.status).toBe(200);
        if (n % 5 === 0) {
          // Talk never repeats a delivery, but a proxy may: the same event to another gateway is handled once.
          const other = targets[(n + 1) % targets.length] as GatewayProcess;
          expect((await (talk as FakeTalk).redeliverLast(`${other.url}/hooks/nextcloud/default`)).status).toBe(200);
        }
      }
    };

    await burst(9);
    // Mid-burst: once turns are in flight, the holder dies.
    await waitFor(() => (model as FakeOpenAI).server.requests.length >= 2, {
      timeoutMs: 20_000,
      message: "turns in flight",
    });
    const killedAt = Date.now();
    holderOf.process.kill("SIGKILL");
    await new Promise((resolve) => holderOf.process.once("exit", resolve));
    await burst(6);
    let next: GatewayProcess | undefined;
    await waitFor(
      async () => {
        next = await holder(alive());
        return next !== undefined;
      },
      {
        timeoutMs: 20_000,
        message: "a new lease holder",
      },
    );
    const takeoverMs = Date.now() - killedAt;
    expect(takeoverMs).toBeLessThan(15_000);
    // Every other gateway names the new holder at once: none shows the dead one, not even for a moment.
    const nextPid = (next as GatewayProcess).process.pid;
    for (const gateway of alive()) {
      const { json } = (await gateway.call("GET", "/v1/channels")) as { json: ChannelsAnswer };
      expect(json.channels.find((c) => c.id === "telegram")?.holder).toMatch(new RegExp(`:${nextPid}$`));
    }
    // The new holder polls Telegram within the same bound (a poll is logged once answered).
    const pollAfterKill = () =>
      (telegram as FakeTelegram).server.requestsTo("POST", /\/getUpdates$/).find((p) => p.at > killedAt);
    await waitFor(() => pollAfterKill() !== undefined, { timeoutMs: 20_000, message: "a poll after the kill" });
    expect((pollAfterKill()?.at as number) - killedAt).toBeLessThan(15_000);
    await burst(6);

    // 0 messages lost: every Telegram and every Talk message is answered.
    const tgReplies = (m: (typeof sentTelegram)[number]) =>
      [...(telegram as FakeTelegram).state.messages.values()].filter(
        (r) => r.chat.id === m.chat.id && r.from?.is_bot && r.reply_to_message?.message_id === m.message_id,
      );
    const talkReplies = (m: { id: string }) =>
      (talk as FakeTalk)
        .messagesIn("team")
        .filter((r) => r.actorId === bot.actorId && String(r.replyTo ?? "") === m.id);
    await eventually(
      () => {
        expect(sentTelegram.filter((m) => tgReplies(m).length === 0).map((m) => m.text)).toEqual([]);
        expect(sentTalk.filter((m) => talkReplies(m).length === 0).map((m) => m.text)).toEqual([]);
      },
      { timeoutMs: 60_000 },
    );
    // Each Talk message is handled once, also the ones delivered twice (one turn each, below). A second
    // copy of a reply only where the kill interrupted its send: then it is the same outbox row sent
    // again, with the same referenceId (from its idempotency key) for Talk clients to recognise.
    const talkTwice = sentTalk.filter((m) => talkReplies(m).length > 1);
    for (const m of talkTwice) expect(new Set(talkReplies(m).map((r) => r.referenceId)).size).toBe(1);
    // Once in the transcript: a delivery repeated to another gateway was recognised, not answered again.
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const users = (await db.query("SELECT entry FROM transcripts")).rows
      .map((r: { entry: string }) => JSON.parse(r.entry) as { role: string; content: string })
      .filter((e) => e.role === "user");
    await db.end();
    for (const m of [...sentTalk, ...sentTelegram.map((t) => ({ text: t.text ?? "" }))]) {
      const mine = new RegExp(`${m.text.replace(/[-]/g, "\\-")}(?!\\d)`);
      expect(
        users.filter((e) => mine.test(e.content)),
        `${m.text} is one turn`,
      ).toHaveLength(1);
    }
    const tgDuplicates = sentTelegram.reduce((n, m) => n + Math.max(0, tgReplies(m).length - 1), 0);
    // At most the sends in flight on the killed gateway (4 turns at a time).
    expect(tgDuplicates + talkTwice.length).toBeLessThanOrEqual(4);

    // Never two pollers at once: the fake refuses a second concurrent getUpdates with 409, and saw none.
    expect((telegram as FakeTelegram).pollConflicts).toBe(0);

    // No turn of a session ran while another of the same session did (the model's request log).
    const sessionOf = (text: string) => /tg (-\d+)/.exec(text)?.[1] ?? (/nc m\d+/.test(text) ? "talk" : "?");
    const answered = (model as FakeOpenAI).server
      .requestsTo("POST", "/v1/chat/completions")
      .filter((r) => r.status === 200 && !r.clientGone);
    const bySession = new Map<string, { at: number; end: number }[]>();
    for (const request of answered) {
      const key = sessionOf(lastUserText(request.body as never) ?? "");
      const list = bySession.get(key) ?? [];
      list.push({ at: request.at, end: request.answeredAt ?? request.at });
      bySession.set(key, list);
    }
    expect([...bySession.keys()].sort()).toEqual([...GROUPS.map(String), "talk"].sort());
    for (const [session, list] of bySession) {
      list.sort((a, b) => a.at - b.at);
      for (let i = 1; i < list.length; i++) {
        expect(
          list[i]?.at,
          `a turn of ${session} started while the one before was still running`,
        ).toBeGreaterThanOrEqual(list[i - 1]?.end as number);
      }
    }
    // The turns were spread: more than one gateway ran Talk turns (it runs everywhere).
    console.info(
      `several gateways: takeover after ${takeoverMs} ms; ${sentTelegram.length} Telegram and ${sentTalk.length} Talk messages, ` +
        `0 lost; ${tgDuplicates} Telegram and ${talkTwice.length} Talk replies sent twice (interrupted by the kill); 0 poll conflicts; ${answered.length} model requests, none overlapping within a session`,
    );
    const { json } = (await (next as GatewayProcess).call("GET", "/v1/channels")) as { json: ChannelsAnswer };
    expect(json.channels.find((c) => c.id === "nextcloud")?.holder).toBeTruthy();
    // The database password is a secret: in no log line, status or answer of any gateway.
    const password = decodeURIComponent(new URL(url).password);
    expect(password.length).toBeGreaterThan(8);
    for (const gateway of gateways) expect(gateway.output()).not.toContain(password);
    expect(JSON.stringify(json)).not.toContain(password);
    expect(gateways.some((g) => g.output().includes("postgres://chorus:***@"))).toBe(true);
  }, 180_000);
});

describe("three gateways share each session's runtime state", () => {
  let talk: FakeTalk | undefined;
  let model: FakeOpenAI | undefined;
  let db: pg.Client | undefined;
  const gateways: GatewayProcess[] = [];
  afterAll(async () => {
    for (const gateway of gateways) await gateway.stop("SIGKILL");
    await db?.end();
    await model?.close();
    await talk?.close();
    for (const gateway of gateways) await removeHome(gateway.home);
  });

  it("a group's context buffered on one gateway and a reaction noted on another reach the turn run on a third; heartbeats run once", async () => {
    const url = await freshPostgresDatabase("gateways_shared");
    talk = createFakeTalk();
    await talk.start();
    talk.addRoom({ token: "lounge", name: "Lounge" });
    talk.addRoom({ token: "dm-ada", type: "one2one", users: ["ada", "chorus"] });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    const EVERY_MS = 2_000;
    // One public address in front of the three (a load balancer): Talk knows the bot by its URL.
    const PUBLIC = "http://chorus.example.test";
    const config = {
      gateway: { publicUrl: PUBLIC },
      plugins: { load: [NEXTCLOUD] },
      state: { backend: "postgres", url },
      channels: {
        // A webhook bot: runs on every gateway; mentions wake the agent, the rest is context.
        nextcloud: {
          baseUrl: talk.url,
          secret: SECRET,
          botName: "Chorus",
          groupPolicy: "open",
          dmPolicy: "open",
          allowFrom: ["*"],
          reactionLevel: "off",
          // Talk's bot API gives a sent message no id, so reactions on the bot's own cannot be told apart: all.
          reactionNotifications: "all",
        },
      },
      agents: {
        defaults: { heartbeat: { every: `${EVERY_MS}ms` } },
        list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test" }) }],
      },
    };
    for (let i = 0; i < 3; i++) gateways.push(await startGatewayProcess({ config }));
    const [a, b, c] = gateways as [GatewayProcess, GatewayProcess, GatewayProcess];
    const bot: FakeBot = talk.installBot({ name: "Chorus", secret: SECRET, url: `${PUBLIC}/hooks/nextcloud/default` });
    talk.setupBot(bot, "lounge");
    talk.setupBot(bot, "dm-ada");
    db = new pg.Client({ connectionString: url });
    await db.connect();
    const sql = db;
    const count = async (query: string): Promise<number> => Number((await sql.query(query)).rows[0]?.n ?? 0);
    const deliver = async (to: GatewayProcess, hook: object) =>
      expect((await (talk as FakeTalk).deliver(`${to.url}/hooks/nextcloud/default`, bot, hook)).status).toBe(200);
    const ada = { id: "ada", name: "Ada" };
    const bob = { id: "bob", name: "Bob" };
    const lounge = (): FakeMessage[] => (talk as FakeTalk).messagesIn("lounge");
    const botIn = (messages: FakeMessage[]) => messages.filter((m) => m.actorId === bot.actorId);
    const loungeRequests = () => (model as FakeOpenAI).requests.filter((r) => lastUserText(r).includes("[from:"));

    // Unmentioned messages land on gateway A: buffered as context (their inbox rows), no turn.
    const context = ["Pizza tonight?", "Only if it has pineapple", "Never pineapple."];
    for (const [i, text] of context.entries()) {
      await deliver(a, (talk as FakeTalk).userSends({ token: "lounge", user: i % 2 === 0 ? bob : ada, message: text }));
    }
    await waitFor(async () => (await count("SELECT count(*) AS n FROM inbox WHERE status = 'buffered'")) === 3, {
      timeoutMs: 15_000,
      message: "three buffered group messages",
    });
    expect(loungeRequests()).toHaveLength(0);
    // The mention lands on gateway B: ONE answer, with every pending message as context.
    model.script({ text: "Pizza it is, no pineapple." });
    const mention = (talk as FakeTalk).userSends({ token: "lounge", user: ada, message: "@Chorus settle this please" });
    await deliver(b, mention);
    await eventually(() => expect(botIn(lounge()).map((m) => m.message)).toEqual(["Pizza it is, no pineapple."]), {
      timeoutMs: 15_000,
    });
    expect(loungeRequests()).toHaveLength(1);
    const batch = lastUserText(loungeRequests()[0]);
    expect(batch).toContain("[Chat messages since your last reply - for context]");
    expect(batch).toContain("Bob: Pizza tonight?\nAda: Only if it has pineapple\nBob: Never pineapple.");
    expect(batch).toContain("[Current message - respond to this]\nAda: @Chorus settle this please");

    // A reaction on the bot's reply lands on gateway C: noted for the session's next turn, which runs on A.
    const reply = botIn(lounge())[0] as FakeMessage;
    await deliver(c, (talk as FakeTalk).userReacts(reply.id, bob, "👍"));
    await waitFor(async () => (await count("SELECT count(*) AS n FROM kv WHERE scope = 'system-events'")) === 1, {
      timeoutMs: 15_000,
      message: "the reaction noted for the session's next turn",
    });
    model.script({ text: "Glad you agree." });
    await deliver(a, (talk as FakeTalk).userSends({ token: "lounge", user: bob, message: "@Chorus thanks" }));
    await eventually(() => expect(botIn(lounge())).toHaveLength(2), { timeoutMs: 15_000 });
    expect(loungeRequests()).toHaveLength(2);
    const next = loungeRequests()[1];
    expect(systemText(next)).toContain("Nextcloud Talk reaction added: 👍 by Bob on msg");
    // Nothing already in the session comes again as context; the reaction is shown once.
    expect(lastUserText(next)).not.toContain("Pizza tonight?");
    expect(lastUserText(next)).not.toContain("[Chat messages since your last reply");
    expect(await count("SELECT count(*) AS n FROM kv WHERE scope = 'system-events'")).toBe(0);

    // Echo memory is shared too: the same text twice without a mention (activation always) gets one answer.
    await deliver(b, (talk as FakeTalk).userSends({ token: "lounge", user: ada, message: "/activation always" }));
    await eventually(() => expect(botIn(lounge())).toHaveLength(3), { timeoutMs: 15_000 });
    await deliver(c, (talk as FakeTalk).userSends({ token: "lounge", user: bob, message: "ping" }));
    await eventually(() => expect(botIn(lounge())).toHaveLength(4), { timeoutMs: 15_000 });
    await deliver(a, (talk as FakeTalk).userSends({ token: "lounge", user: bob, message: "ping" }));
    await waitFor(async () => (await count("SELECT count(*) AS n FROM inbox WHERE status = 'received'")) === 0, {
      timeoutMs: 15_000,
      message: "the repeated ping handled",
    });
    expect(botIn(lounge())).toHaveLength(4);

    // Heartbeats: the direct chat's session (whose turns ran on all three) is beaten by one gateway, not three.
    for (const [i, to] of [a, b, c].entries()) {
      await deliver(to, (talk as FakeTalk).userSends({ token: "dm-ada", user: ada, message: `hi ${i}` }));
      // Answered (heartbeats may already post in this chat too: the model's log tells the turns apart).
      await eventually(
        () => expect((model as FakeOpenAI).requests.some((r) => lastUserText(r) === `hi ${i}`)).toBe(true),
        { timeoutMs: 15_000 },
      );
    }
    await waitFor(async () => (await count("SELECT count(*) AS n FROM inbox WHERE status = 'received'")) === 0, {
      timeoutMs: 15_000,
      message: "the direct messages handled",
    });
    const heartbeats = () =>
      (model as FakeOpenAI).server
        .requestsTo("POST", "/v1/chat/completions")
        .filter((r) => lastUserText(r.body as never) === DEFAULT_HEARTBEAT_PROMPT);
    await waitFor(() => heartbeats().length >= 1, { timeoutMs: 15_000, message: "a first heartbeat" });
    const firstAt = heartbeats()[0]?.at as number;
    await waitFor(() => heartbeats().length >= 5, { timeoutMs: 30_000, message: "five heartbeats" });
    const beats = heartbeats().map((r) => r.at);
    const spanMs = (beats.at(-1) as number) - firstAt;
    // One scheduler beats the session: every EVERY_MS, never three times per interval.
    expect(beats.length).toBeLessThanOrEqual(Math.floor(spanMs / EVERY_MS) + 2);
    for (let i = 1; i < beats.length; i++) {
      expect((beats[i] as number) - (beats[i - 1] as number), "two heartbeats within half an interval").toBeGreaterThan(
        EVERY_MS / 2,
      );
    }
    // Groups never get one.
    expect(loungeRequests().some((r) => lastUserText(r) === DEFAULT_HEARTBEAT_PROMPT)).toBe(false);
  }, 120_000);
});
