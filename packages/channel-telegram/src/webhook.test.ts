import { startChannel } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { ANN, GROUP, isText, telegramSession } from "./fake-group.test-util.js";
import { telegramChannel } from "./index.js";

const HOOK = "https://bot.example.com/hooks/telegram/default";
const secretToken = "s3cret_token-ABC";
const t = telegramSession({ webhookUrl: HOOK, secretToken });

describe("Telegram webhook mode", () => {
  it("sets the webhook with the secret and reaction updates; verified deliveries are emitted once", async () => {
    const running = await t.start();
    const hook = `${running.hooksUrl}/hooks/telegram/default`;
    expect(t.fake.webhook).toEqual({
      url: "https://bot.example.com/hooks/telegram/default",
      secret_token: secretToken,
    });
    expect(t.fake.allowedUpdates).toEqual(["message", "message_reaction", "message_reaction_count"]);
    expect(t.fake.server.requestsTo("POST", /\/getUpdates$/)).toEqual([]);

    const update = t.fake.state.enqueue({ message: t.fake.state.postMessage(GROUP, ANN, { text: "via webhook" }) });
    expect((await t.fake.deliver(hook, update)).status).toBe(200);
    expect((await t.fake.deliver(hook, update)).status).toBe(200); // redelivery
    await running.waitForEvent(isText("via webhook"));
    expect(running.events.filter(isText("via webhook"))).toHaveLength(1);
    // The plugin keeps no dedupe set: the redelivery carries the same eventId, which the host drops.
    expect(running.duplicates.map((e) => e.eventId)).toEqual([String(update.update_id)]);
  });

  it("a forged delivery (wrong or missing secret) is refused with 401 and nothing is processed", async () => {
    const running = await t.start();
    const hook = `${running.hooksUrl}/hooks/telegram/default`;
    const forged = t.fake.state.enqueue({ message: t.fake.state.postMessage(GROUP, ANN, { text: "forged" }) });
    expect((await t.fake.deliver(hook, forged, { secretToken: "guess" })).status).toBe(401);
    expect((await t.fake.deliver(hook, forged, { secretToken: null })).status).toBe(401);
    const real = t.fake.state.enqueue({ message: t.fake.state.postMessage(GROUP, ANN, { text: "real" }) });
    await t.fake.deliver(hook, real);
    await running.waitForEvent(isText("real"));
    expect(running.events.filter(isText("forged"))).toEqual([]);
  });

  it("accounts get their own webhook path", async () => {
    const running = await t.start({ webhookUrl: "https://bot.example.com/hooks/telegram/work" }, { accountId: "work" });
    const update = t.fake.state.enqueue({ message: t.fake.state.postMessage(GROUP, ANN, { text: "for work" }) });
    expect((await t.fake.deliver(`${running.hooksUrl}/hooks/telegram/default`, update)).status).toBe(404);
    expect((await t.fake.deliver(`${running.hooksUrl}/hooks/telegram/work`, update)).status).toBe(200);
    await running.waitForEvent(isText("for work"));
  });

  it("an update it cannot read is acknowledged (Telegram would only resend it) with a warning naming the problem", async () => {
    const running = await t.start();
    const hook = `${running.hooksUrl}/hooks/telegram/default`;
    const bad = t.fake.state.enqueue({ message: { message_id: 9, date: 1767225600, text: "no chat" } });
    expect((await t.fake.deliver(hook, bad)).status).toBe(200);
    const notJson = await fetch(hook, {
      method: "POST",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secretToken },
      body: "{ not json",
    });
    expect(notJson.status).toBe(400);
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      expect.stringMatching(
        new RegExp(`^telegram: skipped a delivery it cannot read: update ${bad.update_id}: message\\.chat: `),
      ),
      expect.stringMatching(/^telegram: ignored a webhook delivery it could not read: the body is not JSON/),
    ]);
    expect(running.events).toEqual([]);
  });

  it("long polling registers no webhook route at all", async () => {
    const running = await startChannel(telegramChannel, { config: t.fake.config() });
    try {
      expect(running.routes).toEqual([]);
      const update = t.fake.state.enqueue({ message: t.fake.state.postMessage(GROUP, ANN, { text: "x" }) });
      expect((await t.fake.deliver(`${running.hooksUrl}/hooks/telegram/default`, update)).status).toBe(404);
    } finally {
      await running.stop();
    }
  });
});
