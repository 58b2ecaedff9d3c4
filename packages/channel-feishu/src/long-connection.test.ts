import { faults, outage, startChannel, waitFor } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { feishuChannel } from "./index.js";
import { type FeishuHarness, QUICK_CLIENT_CONFIG, startFeishu } from "./start.test-util.js";
import { createFakeFeishu, type FakeFeishu, FrameMethod } from "./testing/index.js";

let h: FeishuHarness | undefined;
let fake: FakeFeishu | undefined;

afterEach(async () => {
  await h?.close();
  await fake?.close();
  h = undefined;
  fake = undefined;
});

const texts = (harness: FeishuHarness) => harness.running.events.map((e) => (e.type === "message" ? e.text : e.type));

describe("the long connection (the SDK's WSClient against the fake's pbbp2 frames)", () => {
  it("asks the endpoint for a URL, pings with its service id, and acknowledges each event with code 200", async () => {
    h = await startFeishu();
    expect(h.running.routes).toEqual([]); // no webhook in this mode
    expect(h.fake.longConnection.handshakes).toBe(1);
    const endpoint = h.fake.server.requestsTo("POST", "/callback/ws/endpoint")[0];
    expect(endpoint?.body).toEqual({ AppID: h.fake.appId, AppSecret: h.fake.appSecret });
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "hello" });
    expect(texts(h)).toEqual(["hello"]);
    const ping = h.fake.longConnection.received.find((f) => f.method === FrameMethod.control);
    expect(ping).toMatchObject({ headers: { type: "ping" }, service: 33554678 });
    expect(h.fake.longConnection.acks.map((a) => a.code)).toEqual([200]);
  });

  it("puts an event split over many frames back together", async () => {
    h = await startFeishu({ fake: { maxFramePayloadBytes: 128 } });
    const text = "a long message that Feishu splits over several frames ".repeat(20).trim();
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text });
    expect(texts(h)).toEqual([text]);
  });

  it("reconnects after the network drops, degraded meanwhile, and receives what was sent in between", async () => {
    h = await startFeishu();
    const harness = h;
    // The endpoint refuses for a while, so the reconnect loop has to keep trying.
    harness.fake.server.inject(outage("refuse", { path: "/callback/ws/endpoint" }));
    harness.fake.longConnection.drop();
    await waitFor(() => harness.running.instance.status().state === "degraded");
    expect(harness.running.instance.status().detail).toMatch(/^the long connection was lost, reconnecting/u);
    const delivered = harness.fake.userSends({ chatId: harness.team.chat_id, from: harness.ann, text: "while away" });
    harness.fake.server.clearFaults();
    await delivered;
    expect(texts(harness)).toEqual(["while away"]);
    expect(harness.running.instance.status()).toEqual({
      state: "running",
      detail: "connected as Chorus (long connection)",
    });
    expect(harness.fake.longConnection.handshakes).toBe(2);
  });

  it("delivers an event again when the client missed it, and the host drops the repeat", async () => {
    h = await startFeishu();
    await h.fake.userSends({ chatId: h.team.chat_id, from: h.ann, text: "once" });
    await h.fake.redeliverLast();
    expect(texts(h)).toEqual(["once"]);
    expect(h.running.duplicates.map((e) => e.eventId)).toEqual([h.running.events[0]?.eventId]);
  });

  it("answers code 500 for an event whose lookup failed for now, so Feishu pushes it again, and acknowledges the retry", async () => {
    h = await startFeishu();
    const harness = h;
    const message = await harness.fake.userSends({
      chatId: harness.team.chat_id,
      from: harness.ann,
      text: "react to me",
    });
    // Feishu names only the message of a reaction: its lookup answers 503 twice (the client's retry too).
    harness.fake.server.inject(
      faults.serverError({ path: `/open-apis/im/v1/messages/${message.message_id}` }, { status: 503, times: 2 }),
    );
    await harness.fake.userReacts(message.message_id, harness.ann, "THUMBSUP");
    expect(harness.fake.longConnection.acks.map((a) => a.code)).toEqual([200, 500, 200]);
    expect(texts(harness)).toEqual(["react to me", "reaction"]);
    expect(harness.running.logs.at("warn").map((r) => r.message)).toEqual([
      expect.stringMatching(
        /^feishu: could not read a delivery .*Feishu refused to GET .* \(HTTP 503\).*not acknowledged/u,
      ),
    ]);
  });

  it("acknowledges (code 200) a reaction to a message Feishu no longer has, with a warning: pushing it again would not help", async () => {
    h = await startFeishu();
    await h.fake.userReacts("om_gone", h.ann, "THUMBSUP");
    expect(h.fake.longConnection.acks.map((a) => a.code)).toEqual([200]);
    expect(h.running.events).toEqual([]);
    expect(h.running.logs.at("warn").map((r) => r.message)).toEqual([
      "feishu: skipped a delivery it cannot read: Feishu refused to GET /open-apis/im/v1/messages/om_gone (HTTP 400, code 231003): The message is not found, maybe not exist or deleted.",
    ]);
  });

  it("starts with E_AUTH when Feishu refuses the app a connection", async () => {
    fake = createFakeFeishu({ clientConfig: QUICK_CLIENT_CONFIG });
    await fake.start();
    const refused = { code: 514, msg: "auth failed", data: {} };
    fake.server.inject(faults.serverError({ path: "/callback/ws/endpoint" }, { status: 200, body: refused, times: 9 }));
    const failure = await startChannel(feishuChannel, { config: fake.config({ timeoutMs: 2_000 }) }).catch((e) => e);
    expect(failure).toMatchObject({ code: "E_AUTH" });
    expect((failure as Error).message).toBe(
      "Feishu refused the long connection: pullConnectConfig failed: code=514, msg=auth failed",
    );
  });

  it("starts a new client with backoff when the SDK gives up for another reason", async () => {
    fake = createFakeFeishu({ clientConfig: QUICK_CLIENT_CONFIG });
    await fake.start();
    // Code 1 ("system busy") makes the SDK stop trying; the channel tries again itself.
    fake.server.inject(
      faults.serverError({ path: "/callback/ws/endpoint" }, { status: 200, body: { code: 1, msg: "", data: {} } }),
    );
    const running = await startChannel(feishuChannel, { config: fake.config({ reconnectMinMs: 20 }) });
    try {
      expect(running.instance.status().state).toBe("running");
      expect(fake.server.requestsTo("POST", "/callback/ws/endpoint").map((r) => r.status)).toEqual([200, 200]);
      expect(fake.longConnection.handshakes).toBe(1);
    } finally {
      await running.stop();
    }
  });
});
