import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeAcme, type FakeAcme } from "./index.js";

// The fake is the platform every test trusts, so its own rules are pinned here.
let fake: FakeAcme;

beforeEach(async () => {
  fake = createFakeAcme({ token: "t0ken", webhookSecret: "0123456789abcdef" });
  await fake.start();
  fake.addConversation({ id: "c_team", type: "group" });
});

afterEach(async () => {
  await fake.close();
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

describe("fake Acme", () => {
  it("answers 401 without the right bearer token", async () => {
    expect((await call("GET", "/v1/me", { token: "nope" })).status).toBe(401);
    expect(await (await call("GET", "/v1/me")).json()).toEqual(fake.bot);
  });

  it("stores one message per idempotency key", async () => {
    const first = await call("POST", "/v1/conversations/c_team/messages", { body: { text: "hi" }, key: "k1" });
    const again = await call("POST", "/v1/conversations/c_team/messages", { body: { text: "hi" }, key: "k1" });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(await again.json()).toEqual(await first.json());
    expect(fake.messagesIn("c_team")).toHaveLength(1);
  });

  it("stores emoji without variation selectors and refuses names that are not emoji", async () => {
    const sent = (await (await call("POST", "/v1/conversations/c_team/messages", { body: { text: "x" } })).json()) as {
      id: string;
    };
    const path = (emoji: string) => `/v1/messages/${sent.id}/reactions/${encodeURIComponent(emoji)}`;
    expect((await call("PUT", path("❤️"))).status).toBe(204);
    expect((await call("PUT", path("❤"))).status).toBe(409);
    expect((await call("PUT", path("thumbsup"))).status).toBe(400);
    expect(fake.botReactions(sent.id)).toEqual(["❤"]);
  });

  it("signs deliveries with HMAC-SHA256 of the raw body and sends the event's timestamp", async () => {
    const seen: { headers: Record<string, unknown>; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      req.on("end", () => {
        seen.push({ headers: req.headers, body });
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const address = receiver.address() as { port: number };
      const event = fake.userSends({ conversationId: "c_team", author: "u_ann", text: "hi" });
      await fake.deliver(`http://127.0.0.1:${address.port}/hook`, event);
      const [delivery] = seen;
      const expected = createHmac("sha256", "0123456789abcdef")
        .update(delivery?.body ?? "")
        .digest("hex");
      expect(delivery?.headers["x-acme-signature"]).toBe(`sha256=${expected}`);
      expect(delivery?.headers["x-acme-timestamp"]).toBe(String(event.timestamp));
      expect(JSON.parse(delivery?.body ?? "")).toEqual(event);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
