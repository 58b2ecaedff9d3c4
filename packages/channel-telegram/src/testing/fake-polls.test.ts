import { afterEach, describe, expect, it } from "vitest";
import { createFakeTelegram, type FakeTelegram } from "./index.js";

describe("the fake's long polls", () => {
  let fake: FakeTelegram | undefined;
  afterEach(async () => {
    await fake?.server.close();
  });

  const poll = (signal?: AbortSignal, timeout = 30) =>
    fetch(`${fake?.url}/bot${fake?.token}/getUpdates`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ timeout }),
      ...(signal ? { signal } : {}),
    });

  it("answers a second concurrent getUpdates with 409 Conflict and counts it, as Telegram does", async () => {
    fake = createFakeTelegram();
    await fake.start();
    const first = new AbortController();
    const open = poll(first.signal).catch(() => undefined);
    // Once the first poll is open on a live connection, a second poller is refused.
    await expect.poll(async () => (await poll(undefined, 0)).status, { timeout: 5_000 }).toBe(409);
    expect(fake.pollConflicts).toBeGreaterThanOrEqual(1);
    // Once the first poller is gone, the next one is served.
    first.abort();
    await open;
    await expect
      .poll(async () => {
        const answer = await poll(undefined, 0);
        return answer.status;
      })
      .toBe(200);
  });
});
