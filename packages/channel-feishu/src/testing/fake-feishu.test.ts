import { readFileSync } from "node:fs";
import { createFakeServer, type FakeServer, faults, json, waitFor } from "@chorus/testkit";
import * as lark from "@larksuiteoapi/node-sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeFeishu, decodeFrame, encodeFrame, type FakeFeishu, FrameMethod } from "./index.js";

// The fake is the platform every test trusts, so its own rules are pinned here.
let fake: FakeFeishu;
let token: string;

beforeEach(async () => {
  fake = createFakeFeishu();
  await fake.start();
  token = (await call("POST", "/open-apis/auth/v3/tenant_access_token/internal", {
    body: { app_id: fake.appId, app_secret: fake.appSecret },
  }).then((r) => r.json())) as string;
  token = (token as unknown as { tenant_access_token: string }).tenant_access_token;
});

afterEach(async () => {
  await fake.close();
});

const call = (method: string, path: string, init: { body?: unknown; auth?: string } = {}) =>
  fetch(`${fake.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(init.auth ? { authorization: init.auth } : {}) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
const api = async (method: string, path: string, body?: unknown) =>
  (await call(method, path, { auth: `Bearer ${token}`, ...(body === undefined ? {} : { body }) })).json() as Promise<
    Record<string, unknown> & { code: number; data: Record<string, unknown> }
  >;

/** The types of a JSON value, with the keys of its objects (and of an array's first item): "the same shape". */
const shape = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.slice(0, 1).map(shape)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]))
      : typeof value;

describe("fake Feishu: the tenant token", () => {
  it("hands out the same token while it is fresh, with the seconds it has left, outside `data`", async () => {
    const again = await call("POST", "/open-apis/auth/v3/tenant_access_token/internal", {
      body: { app_id: fake.appId, app_secret: fake.appSecret },
    }).then((r) => r.json());
    expect(again).toEqual({ code: 0, msg: "ok", tenant_access_token: token, expire: expect.any(Number) });
    expect(fake.tokens.issued).toEqual([token]);
  });

  it("answers 99991661 without a token and 99991663 for an expired one, in Feishu's envelope", async () => {
    const missing = await call("GET", "/open-apis/bot/v3/info");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 99991661, error: { log_id: expect.any(String) } });
    fake.tokens.expireAll();
    expect(await api("GET", "/open-apis/bot/v3/info")).toMatchObject({ code: 99991663 });
  });
});

describe("fake Feishu: messages and reactions", () => {
  it("makes one message per uuid, and refuses a chat the bot is not in with 230002", async () => {
    const chat = fake.addChat({ name: "Team", members: [fake.addUser("Ann")] });
    const body = { receive_id: chat.chat_id, msg_type: "text", content: '{"text":"hi"}', uuid: "u-1" };
    const first = await api("POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", body);
    const again = await api("POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", body);
    expect(again.data).toEqual(first.data);
    expect(fake.messagesIn(chat.chat_id)).toHaveLength(1);
    expect(first.data).toMatchObject({
      msg_type: "text",
      sender: { id: fake.appId, id_type: "app_id", sender_type: "app" },
    });
    const outside = fake.addChat({ name: "Elsewhere", members: [], botIn: false });
    const refused = await api("POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", {
      ...body,
      receive_id: outside.chat_id,
      uuid: "u-2",
    });
    expect(refused).toMatchObject({ code: 230002, msg: "The bot can not be outside the group." });
  });

  it("takes only official emoji_types, in their case, and lists them a page at a time", async () => {
    const chat = fake.addChat({ name: "Team", members: [] });
    const { message_id: id } = (
      await api("POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", {
        receive_id: chat.chat_id,
        msg_type: "text",
        content: '{"text":"x"}',
      })
    ).data as { message_id: string };
    const react = (type: string) =>
      api("POST", `/open-apis/im/v1/messages/${id}/reactions`, { reaction_type: { emoji_type: type } });
    expect(await react("THUMBSDOWN")).toMatchObject({ code: 231001, msg: "reaction type is invalid." });
    for (const type of ["ThumbsDown", "Fire", "OK"]) expect((await react(type)).code).toBe(0);
    const page = await api("GET", `/open-apis/im/v1/messages/${id}/reactions?page_size=2`);
    expect(page.data).toMatchObject({ has_more: true, items: [{}, {}] });
    const next = await api(
      "GET",
      `/open-apis/im/v1/messages/${id}/reactions?page_size=2&page_token=${page.data.page_token}`,
    );
    expect(next.data).toEqual({
      has_more: false,
      items: [expect.objectContaining({ reaction_type: { emoji_type: "OK" } })],
    });
    expect(fake.botReactions(id)).toEqual(["ThumbsDown", "Fire", "OK"]);
  });
});

describe("fake Feishu: events", () => {
  it("sends im.message.receive_v1 shaped like Feishu's documented example", async () => {
    const documented = JSON.parse(
      readFileSync(new URL("../fixtures/message-receive-text.json", import.meta.url), "utf8"),
    );
    const ann = fake.addUser("Ann");
    const chat = fake.addChat({ name: "Team", members: [ann] });
    const sender = { id: ann.open_id, id_type: "open_id", sender_type: "user" };
    const parent = fake.state.postMessage({
      chatId: chat.chat_id,
      sender,
      msgType: "text",
      content: '{"text":"first"}',
    });
    const message = fake.state.postMessage({
      chatId: chat.chat_id,
      sender,
      msgType: "text",
      content: '{"text":"@_user_1 hello"}',
      parentId: parent.message_id,
      mentions: [{ key: "@_user_1", id: ann.open_id, id_type: "open_id", name: "Ann" }],
    });
    expect(shape(fake.events.messageReceived(message, ann))).toEqual(shape(documented));
  });
});

describe("fake Feishu: frames", () => {
  it("encodes and decodes pbbp2 frames, headers and payload included", () => {
    const frame = {
      seqId: 0,
      logId: 7_000_000_000_123,
      service: 33554678,
      method: FrameMethod.data,
      headers: { type: "event", message_id: "m1", sum: "1", seq: "0", trace_id: "t" },
      payload: Buffer.from('{"schema":"2.0"}'),
    };
    expect(decodeFrame(encodeFrame(frame))).toEqual(frame);
  });
});

describe("fake Feishu: pushing again what the app did not acknowledge", () => {
  // Feishu waits 3 s for an answer and retries after 15 s, 5 min, 1 h and 6 h; here it is quicker.
  const quick = { ackTimeoutMs: 300, retryDelaysMs: [10, 20, 30, 40] };
  let app: FakeServer;
  let retrying: FakeFeishu;

  afterEach(async () => {
    await retrying.close();
    await app?.close();
  });

  /** A fake delivering by webhook to an app that answers 200 unless a fault says otherwise. */
  async function webhookApp(): Promise<void> {
    retrying = createFakeFeishu({ delivery: "webhook", ...quick });
    await retrying.start();
    app = createFakeServer();
    app.route("POST", "/events", () => json(200, {}));
    await app.start();
    retrying.webhooks.url = `${app.url}/events`;
  }
  const eventIds = () =>
    app
      .requestsTo("POST", "/events")
      .map((r) => (JSON.parse(r.rawBody) as { header: { event_id: string } }).header.event_id);
  const ann = () => retrying.addUser("Ann");

  it("webhook: a push not answered 200 comes again, with the same event_id", async () => {
    await webhookApp();
    app.inject(faults.serverError({ path: "/events" }, { status: 503 }));
    const from = ann();
    const chat = retrying.addChat({ name: "Team", members: [from] });
    await retrying.userSends({ chatId: chat.chat_id, from, text: "hi" });
    await waitFor(() => retrying.webhooks.posted.length === 2);
    expect(retrying.webhooks.posted.map((p) => [p.status, p.retry])).toEqual([
      [503, 0],
      [200, 1],
    ]);
    const [first, again] = eventIds();
    expect(again).toBe(first);
  });

  it("webhook: gives up after 4 retries, and counts an answer later than 3 s (here 300 ms) as failed", async () => {
    await webhookApp();
    app.inject(faults.delay({ path: "/events" }, 500, { times: 5 }));
    const from = ann();
    const chat = retrying.addChat({ name: "Team", members: [from] });
    await retrying.userSends({ chatId: chat.chat_id, from, text: "slow app" });
    await waitFor(() => retrying.webhooks.posted.length === 5, { timeoutMs: 5_000 });
    await retrying.webhooks.settled();
    expect(retrying.webhooks.posted.map((p) => [p.status, p.retry])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
    ]);
  });

  it("webhook: a post of the test's own (a forger's) is sent once", async () => {
    await webhookApp();
    app.inject(faults.serverError({ path: "/events" }, { status: 401 }));
    expect((await retrying.webhooks.post("{}")).status).toBe(401);
    await retrying.webhooks.settled();
    expect(retrying.webhooks.posted).toHaveLength(1);
  });

  it("long connection: an event the SDK answers with code 500 (its handler threw) is pushed again; after 4 retries Feishu gives up", async () => {
    retrying = createFakeFeishu({ ...quick, clientConfig: { ReconnectInterval: 0.1, ReconnectNonce: 0 } });
    await retrying.start();
    let calls = 0;
    let failing = 1;
    const dispatcher = new lark.EventDispatcher({ loggerLevel: lark.LoggerLevel.fatal }).register({
      "im.message.receive_v1": async () => {
        calls++;
        if (failing-- > 0) throw new Error("not committed");
      },
    });
    const client = new lark.WSClient({
      appId: retrying.appId,
      appSecret: retrying.appSecret,
      domain: retrying.url,
      loggerLevel: lark.LoggerLevel.fatal,
    });
    try {
      await client.start({ eventDispatcher: dispatcher });
      await waitFor(() => retrying.longConnection.sessions.length === 1);
      const from = ann();
      const chat = retrying.addChat({ name: "Team", members: [from] });
      await retrying.userSends({ chatId: chat.chat_id, from, text: "once refused" });
      expect(retrying.longConnection.acks.map((a) => a.code)).toEqual([500, 200]);
      failing = Number.POSITIVE_INFINITY;
      const event = retrying.events.envelope("im.message.receive_v1", {});
      expect(await retrying.longConnection.push(event)).toBe(false);
      expect(retrying.longConnection.acks.slice(2).map((a) => a.code)).toEqual([500, 500, 500, 500, 500]);
      expect(calls).toBe(7);
    } finally {
      client.close({ force: true });
    }
  });
});
