import { describe, expect, it } from "vitest";
import {
  ChorusError,
  ERROR_CODES,
  type ErrorCode,
  isChorusError,
  RateLimitedError,
  toChorusError,
  UnsupportedEmojiError,
} from "./errors.js";

/** What a ChorusError thrown by another installed copy of @chorus/core looks like. */
class ForeignChorusError extends Error {
  override readonly name = "ChorusError";
  constructor(
    readonly code: string,
    message: string,
    readonly retryable: boolean,
    readonly hint?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

describe("ChorusError", () => {
  it("carries code, message and name, and is an Error", () => {
    const error = new ChorusError("E_MESSAGE_NOT_FOUND", "no such message");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ChorusError");
    expect(error.code).toBe("E_MESSAGE_NOT_FOUND");
    expect(error.message).toBe("no such message");
    expect(error.hint).toBeUndefined();
    expect(error.details).toBeUndefined();
    expect(error.cause).toBeUndefined();
    expect(error.stack).toContain("no such message");
  });

  it.each(ERROR_CODES.map((code) => [code, code === "E_RATE_LIMITED" || code === "E_PLATFORM"] as const))(
    "%s is retryable by default: %s",
    (code, retryable) => {
      expect(new ChorusError(code, "x").retryable).toBe(retryable);
    },
  );

  it("lets options override retryable either way", () => {
    expect(new ChorusError("E_PLATFORM", "x", { retryable: false }).retryable).toBe(false);
    expect(new ChorusError("E_AUTH", "x", { retryable: true }).retryable).toBe(true);
  });

  it("keeps hint, details and cause", () => {
    const cause = new Error("socket hang up");
    const error = new ChorusError("E_PLATFORM", "send failed", { hint: "try later", details: { status: 502 }, cause });
    expect(error.hint).toBe("try later");
    expect(error.details).toEqual({ status: 502 });
    expect(error.cause).toBe(cause);
  });

  it("lists the codes of DESIGN §2.4", () => {
    expect([...ERROR_CODES].sort()).toEqual(
      [
        "E_INVALID_INPUT",
        "E_EMOJI_REQUIRED",
        "E_UNSUPPORTED",
        "E_UNSUPPORTED_EMOJI",
        "E_MESSAGE_NOT_FOUND",
        "E_DISABLED",
        "E_AUTH",
        "E_RATE_LIMITED",
        "E_PLATFORM",
        "E_TOO_LARGE",
      ].sort(),
    );
  });
});

describe("ChorusError.toJSON", () => {
  it("has code, message and retryable only, when nothing else is set", () => {
    const json = new ChorusError("E_AUTH", "bad token", { cause: new Error("401") }).toJSON();
    expect(json).toEqual({ code: "E_AUTH", message: "bad token", retryable: false });
    expect(Object.keys(json).sort()).toEqual(["code", "message", "retryable"]);
  });

  it("adds hint and details when set", () => {
    const json = new ChorusError("E_UNSUPPORTED", "no", { hint: "use X", details: { path: ["emoji"] } }).toJSON();
    expect(json).toEqual({
      code: "E_UNSUPPORTED",
      message: "no",
      retryable: false,
      hint: "use X",
      details: { path: ["emoji"] },
    });
  });

  it("is what JSON.stringify sends: no stack, no cause, no name", () => {
    const error = new ChorusError("E_PLATFORM", "boom", { cause: new Error("inner") });
    const sent = JSON.parse(JSON.stringify(error));
    expect(sent).toEqual({ code: "E_PLATFORM", message: "boom", retryable: true });
    expect(JSON.stringify(error)).not.toContain("inner");
    expect(JSON.stringify(error)).not.toContain("at ");
  });
});

describe("RateLimitedError", () => {
  it("is a retryable E_RATE_LIMITED with retryAfterMs as field and detail", () => {
    const error = new RateLimitedError("slow down", 1500, { hint: "wait", details: { route: "/react" } });
    expect(error).toBeInstanceOf(ChorusError);
    expect(error.name).toBe("RateLimitedError");
    expect(error.code).toBe("E_RATE_LIMITED");
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(1500);
    expect(error.hint).toBe("wait");
    expect(error.details).toEqual({ route: "/react", retryAfterMs: 1500 });
    expect(error.toJSON().details).toEqual({ route: "/react", retryAfterMs: 1500 });
  });

  it("stays retryable even if asked otherwise", () => {
    const options = { retryable: false } as unknown as ConstructorParameters<typeof RateLimitedError>[2];
    expect(new RateLimitedError("slow down", 10, options).retryable).toBe(true);
  });
});

describe("UnsupportedEmojiError", () => {
  it("is E_UNSUPPORTED_EMOJI, not retryable, with alternatives and a default hint", () => {
    const error = new UnsupportedEmojiError("no 🍕 here", "🍕", ["👍", "❤"]);
    expect(error.code).toBe("E_UNSUPPORTED_EMOJI");
    expect(error.name).toBe("UnsupportedEmojiError");
    expect(error.retryable).toBe(false);
    expect(error.emoji).toBe("🍕");
    expect(error.alternatives).toEqual(["👍", "❤"]);
    expect(error.details).toEqual({ emoji: "🍕", alternatives: ["👍", "❤"] });
    expect(error.hint).toBe("Try one of: 👍, ❤");
  });

  it("takes an explicit hint and has none without alternatives", () => {
    expect(new UnsupportedEmojiError("no", "🍕", ["love"], "emoji must be one of: love").hint).toBe(
      "emoji must be one of: love",
    );
    expect(new UnsupportedEmojiError("no", "🍕", []).hint).toBeUndefined();
  });

  it("does not share its details array with the caller", () => {
    const alternatives = ["👍"];
    const error = new UnsupportedEmojiError("no", "🍕", alternatives);
    alternatives.push("❤");
    expect(error.details?.alternatives).toEqual(["👍"]);
  });
});

describe("isChorusError", () => {
  it("is true for ChorusError and its subclasses", () => {
    expect(isChorusError(new ChorusError("E_AUTH", "x"))).toBe(true);
    expect(isChorusError(new RateLimitedError("x", 1))).toBe(true);
    expect(isChorusError(new UnsupportedEmojiError("x", "🍕", []))).toBe(true);
  });

  it("is true for a structurally equal error from another copy of the package", () => {
    const foreign = new ForeignChorusError("E_MESSAGE_NOT_FOUND", "gone", false);
    expect(foreign).not.toBeInstanceOf(ChorusError);
    expect(isChorusError(foreign)).toBe(true);
  });

  it("is false for lookalikes that are not errors or have a foreign code", () => {
    expect(isChorusError({ code: "E_AUTH", message: "x", retryable: false })).toBe(false);
    expect(isChorusError(new ForeignChorusError("ENOENT", "x", false))).toBe(false);
    expect(isChorusError(Object.assign(new Error("x"), { code: "E_AUTH" }))).toBe(false);
    expect(isChorusError(Object.assign(new Error("x"), { code: "E_AUTH", retryable: "no" }))).toBe(false);
    expect(isChorusError(new Error("x"))).toBe(false);
    expect(isChorusError(null)).toBe(false);
    expect(isChorusError(undefined)).toBe(false);
    expect(isChorusError("E_AUTH")).toBe(false);
  });
});

describe("toChorusError", () => {
  it("returns a ChorusError unchanged", () => {
    const error = new RateLimitedError("x", 5);
    expect(toChorusError(error, "ignored")).toBe(error);
  });

  it("rebuilds a ChorusError from another copy, keeping code, retryable, hint and details", () => {
    const foreign = new ForeignChorusError("E_UNSUPPORTED", "no removal", false, "add only", { channel: "x" });
    const error = toChorusError(foreign);
    expect(error).toBeInstanceOf(ChorusError);
    expect(error.code).toBe<ErrorCode>("E_UNSUPPORTED");
    expect(error.message).toBe("no removal");
    expect(error.retryable).toBe(false);
    expect(error.hint).toBe("add only");
    expect(error.details).toEqual({ channel: "x" });
    expect(error.cause).toBe(foreign);
  });

  it("wraps any other Error as a retryable E_PLATFORM, prefixed by the context", () => {
    const cause = new TypeError("fetch failed");
    const error = toChorusError(cause, "telegram setMessageReaction");
    expect(error.code).toBe("E_PLATFORM");
    expect(error.retryable).toBe(true);
    expect(error.message).toBe("telegram setMessageReaction: fetch failed");
    expect(error.cause).toBe(cause);
    expect(toChorusError(cause).message).toBe("fetch failed");
  });

  it("wraps thrown non-errors by their string form", () => {
    expect(toChorusError("bad gateway").message).toBe("bad gateway");
    expect(toChorusError(404, "get").message).toBe("get: 404");
    expect(toChorusError(undefined).code).toBe("E_PLATFORM");
    expect(toChorusError(undefined).cause).toBeUndefined();
  });
});
