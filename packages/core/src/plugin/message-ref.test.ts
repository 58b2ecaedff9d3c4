import { describe, expect, it } from "vitest";
import { ChorusError } from "../errors.js";
import { type MessageRef, parseMessageRef } from "./message-ref.js";

const minimal: MessageRef = { channel: "whatsapp", accountId: "default", conversationId: "123@g.us", messageId: "ABC" };

/** The E_INVALID_INPUT parseMessageRef throws for `value`. */
function rejection(value: unknown): ChorusError {
  try {
    parseMessageRef(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ChorusError);
    expect((error as ChorusError).code).toBe("E_INVALID_INPUT");
    return error as ChorusError;
  }
  throw new Error("expected parseMessageRef to reject");
}

describe("parseMessageRef", () => {
  it("accepts the four required fields", () => {
    expect(parseMessageRef(minimal)).toEqual(minimal);
  });

  it("accepts threadId, fromBot and plugin data, also after a JSON round trip", () => {
    const full: MessageRef = {
      ...minimal,
      threadId: "t1",
      fromBot: false,
      data: {
        participant: "4915123456789@s.whatsapp.net",
        fromMe: false,
        timestamp: 1_700_000_000,
        nested: { ids: ["a", 1, null] },
      },
    };
    expect(parseMessageRef(JSON.parse(JSON.stringify(full)))).toEqual(full);
  });

  it.each([null, undefined, "ABC", 42, [minimal]])("rejects %j, which is not an object", (value) => {
    expect(rejection(value).message).toBe("message reference must be an object");
  });

  it.each(["channel", "accountId", "conversationId", "messageId"] as const)(
    "rejects a missing or empty %s, naming it",
    (field) => {
      const message = `message reference field ${field} must be a non-empty string`;
      const { [field]: _, ...without } = minimal;
      expect(rejection(without).message).toBe(message);
      expect(rejection({ ...minimal, [field]: "" }).message).toBe(message);
      expect(rejection({ ...minimal, [field]: 7 }).message).toBe(message);
    },
  );

  it.each([
    ["threadId", 5, "message reference field threadId must be a string"],
    ["fromBot", "yes", "message reference field fromBot must be a boolean"],
    ["data", "x", "message reference field data must be an object"],
    ["data", null, "message reference field data must be an object"],
    ["data", ["x"], "message reference field data must be an object"],
  ])("rejects %s = %j, naming it", (field, value, message) => {
    expect(rejection({ ...minimal, [field]: value }).message).toBe(message);
  });
});
