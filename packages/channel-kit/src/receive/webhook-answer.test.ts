import { describe, expect, it } from "vitest";
import type { Receipt } from "./receiver.js";
import { webhookAnswer } from "./webhook-answer.js";

describe("webhookAnswer", () => {
  it("answers each receipt with its status, and a failure names itself", async () => {
    const answers = await Promise.all(
      (["committed", "ignored", "kept", "unreadable", "not-committed"] as Receipt[]).map(async (receipt) => {
        const response = webhookAnswer(receipt);
        return [receipt, response.status, await response.json()];
      }),
    );
    expect(answers).toEqual([
      ["committed", 200, { ok: true }],
      ["ignored", 200, { ok: true }],
      ["kept", 202, { ok: true }],
      ["unreadable", 400, { ok: false, error: "unreadable" }],
      ["not-committed", 503, { ok: false, error: "not-committed" }],
    ]);
  });
});
