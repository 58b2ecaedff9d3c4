import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { hmacSha256Hex } from "@chorus/channel-kit";
import { waitFor } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeAcme, type FakeAcme } from "./index.js";

// The fake is the platform every test trusts, so its own rules are pinned here.
const ann = { id: "u_ann", name: "Ann" };
let fake: FakeAcme;
/** What the bot's webhook received. */
let received: { headers: IncomingHttpHeaders; body: string }[];
let receiver: ReturnType<typeof createServer>;
/** What the bot's webhook answers next, one status per request (200 once they are used up). */
let answers: number[];

beforeEach(async () => {
  received = [];
  answers = [];
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  fake = createFakeAcme({ token: "t0ken", webhookSecret: "0123456789abcdef", retryDelaysMs: [20, 40] });
  await fake.start();
  fake.addConversation({ id: "c_team", type: "group", name: "Team", members: [fake.bot, ann] });
  const { port } = receiver.address() as { port: number };
  expect((await call("PUT", "/v1/webhook", { body: { url: `http://127.0.0.1:${port}/hook` } })).status).toBe(204);
});

afterEach(async () => {
  await fake.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const call = (method: string, path: string, init: { token?: string; body?: unknown; key?: string } = {}) =>
  fetch(`${fake.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${init.token ?? "t0ken"}`,
      "content-type": "application/json",
      ...(init.key ? { "idempotency-key": init.key } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

const bodies = () => received.map((r) => JSON.parse(r.body) as { id: string; type: string; data: unknown });

/** The types of a JSON value, with the keys of its objects (and of an array's first item): "the same shape". */
const shape = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.slice(0, 1).map(shape)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]))
      : typeof value;

describe("fake Acme", () => {
  it("answers 401 without the right bearer token", async () => {
    expect((await call("GET", "/v1/me", { token: "nope" })).status).toBe(401);
    expect(await (await call("GET", "/v1/me")).json()).toEqual(fake.bot);
  });

  it("stores one message per idempotency key, and echoes the bot's message to its webhook", async () => {
    const first = await call("POST", "/v1/conversations/c_team/messages", { body: { text: "hi" }, key: "k1" });
    const again = await call("POST", "/v1/conversations/c_team/messages", { body: { text: "hi" }, key: "k1" });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(await again.json()).toEqual(await first.json());
    expect(fake.messagesIn("c_team")).toHaveLength(1);
    await fake.webhooks.settled();
    expect(bodies().map((b) => b.type)).toEqual(["message.created"]);
  });

  it("takes a bot's file with its message, up to 8 MB and of the kinds bots send, and serves it with the token", async () => {
    const upload = (kind: string, bytes: Uint8Array) => {
      const form = new FormData();
      form.set("kind", kind);
      form.set("text", "caption");
      form.set("file", new Blob([bytes], { type: "application/pdf" }), "doc.pdf");
      return fetch(`${fake.url}/v1/conversations/c_team/files`, {
        method: "POST",
        headers: { authorization: "Bearer t0ken" },
        body: form,
      });
    };
    const sent = await upload("file", new Uint8Array([1, 2, 3]));
    expect(sent.status).toBe(201);
    const message = (await sent.json()) as { id: string; text: string; file: { url: string; size: number } };
    expect(message).toMatchObject({ text: "caption", file: { kind: "file", name: "doc.pdf", size: 3 } });
    expect(fake.messageMedia(message.id).media[0]?.bytes).toEqual(new Uint8Array([1, 2, 3]));
    const download = await fetch(message.file.url, { headers: { authorization: "Bearer t0ken" } });
    expect([download.status, download.headers.get("content-type")]).toEqual([200, "application/pdf"]);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(fake.files.bytesServed).toBe(3);
    expect((await fetch(message.file.url)).status).toBe(401);
    expect(await (await upload("voice", new Uint8Array(1))).json()).toMatchObject({ error: "unsupported_kind" });
    const tooLarge = await upload("file", new Uint8Array(8 * 1024 * 1024 + 1));
    expect([tooLarge.status, ((await tooLarge.json()) as { error: string }).error]).toEqual([413, "file_too_large"]);
    expect(fake.messagesIn("c_team")).toHaveLength(1);
  });

  it("accepts only its closed set of reaction names, and has no listing and no clearing", async () => {
    const { id } = await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "x" });
    const reaction = (name: string) => `/v1/messages/${id}/reactions/${encodeURIComponent(name)}`;
    expect((await call("PUT", reaction("heart"))).status).toBe(204);
    expect((await call("PUT", reaction("heart"))).status).toBe(409);
    for (const name of ["❤️", "thumbsup", "@me"]) {
      expect(await (await call("PUT", reaction(name))).json()).toMatchObject({ error: "unknown_reaction" });
    }
    expect((await call("GET", `/v1/messages/${id}/reactions`)).status).toBe(404);
    expect((await call("DELETE", `/v1/messages/${id}/reactions`)).status).toBe(404);
    expect((await call("DELETE", reaction("@me"))).status).toBe(404);
    expect(fake.botReactions(id)).toEqual(["heart"]);
  });

  it("signs each delivery with HMAC-SHA256 of <timestamp>.<body>, in order", async () => {
    await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "one" });
    await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "two" });
    for (const { headers, body } of received) {
      const timestamp = String(headers["x-acme-timestamp"]);
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
      expect(headers["x-acme-signature"]).toBe(`sha256=${hmacSha256Hex("0123456789abcdef", `${timestamp}.${body}`)}`);
    }
    expect(bodies().map((b) => (b.data as { message: { text: string } }).message.text)).toEqual(["one", "two"]);
  });

  it("redelivers the last delivery with the same id", async () => {
    await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "ping" });
    expect(await fake.redeliverLast()).toBe(200);
    const [first, again] = bodies();
    expect(again).toEqual(first);
  });

  it("sends message deliveries shaped like Acme's documented example", async () => {
    const documented = JSON.parse(
      readFileSync(new URL("../fixtures/message-created-group.json", import.meta.url), "utf8"),
    ) as unknown;
    await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "hi", mentions: ["u_bot"] });
    const [sent] = bodies();
    const members = (value: unknown) =>
      (value as { data: { conversation: { members: unknown[] } } }).data.conversation.members;
    // Same keys and types everywhere, member lists aside (their length differs).
    members(documented).splice(1);
    members(sent).splice(1);
    expect(shape(sent)).toEqual(shape(documented));
  });

  it("sends a forged delivery signed with another secret, and a signed one that is not Acme's shape", async () => {
    await fake.forge("hello");
    await fake.deliverUnparseable();
    const [forged, broken] = received;
    const signature = (r: typeof forged) =>
      `sha256=${hmacSha256Hex("0123456789abcdef", `${r?.headers["x-acme-timestamp"]}.${r?.body}`)}`;
    expect(forged?.headers["x-acme-signature"]).not.toBe(signature(forged));
    expect(broken?.headers["x-acme-signature"]).toBe(signature(broken));
    expect(bodies()[1]?.data).toMatchObject({ message: { id: 42 } });
  });

  it("posts a delivery answered 5xx again, with the same id, a fresh signature and X-Acme-Retry, until answered 2xx", async () => {
    answers = [503, 500];
    expect(await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "again" })).toBeDefined();
    await waitFor(() => fake.webhooks.posted.length === 3);
    expect(fake.webhooks.posted.map((p) => [p.status, p.retry])).toEqual([
      [503, 0],
      [500, 1],
      [200, 2],
    ]);
    expect(received.map((r) => r.headers["x-acme-retry"])).toEqual([undefined, "1", "2"]);
    const [first, ...retries] = bodies();
    for (const retry of retries) expect(retry).toEqual(first);
    for (const { headers, body } of received) {
      expect(headers["x-acme-signature"]).toBe(
        `sha256=${hmacSha256Hex("0123456789abcdef", `${headers["x-acme-timestamp"]}.${body}`)}`,
      );
    }
  });

  it("gives up after its last retry, and never retries a 4xx", async () => {
    answers = [503, 503, 503];
    await fake.userSends({ conversationId: "c_team", author: "u_ann", text: "lost" });
    await waitFor(() => fake.webhooks.posted.length === 3);
    expect(fake.webhooks.retrying).toBe(0);
    answers = [401];
    expect(await fake.forge("hello")).toBe(401);
    expect(fake.webhooks.retrying).toBe(0);
    expect(fake.webhooks.posted.map((p) => [p.status, p.retry])).toEqual([
      [503, 0],
      [503, 1],
      [503, 2],
      [401, 0],
    ]);
  });
});
