import { ChorusError, type Logger, RateLimitedError } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { Redactor, secretsOf } from "./redactor.js";

const SECRET = "s3cr3t/with+chars=";

describe("Redactor", () => {
  it("replaces a secret in every spelling a URL or JSON gives it", () => {
    const redactor = new Redactor([SECRET]);
    const encoded = encodeURIComponent(SECRET);
    const text = `raw ${SECRET} url ${encoded} json ${JSON.stringify(SECRET)} b64 ${Buffer.from(SECRET).toString("base64")}`;
    const out = redactor.text(text);
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain(encoded);
    expect(out).not.toContain(Buffer.from(SECRET).toString("base64").replace(/=+$/, ""));
    expect(out.match(/\[redacted\]/g)).toHaveLength(4);
  });

  it("recognises secret shapes it was not told about", () => {
    const redactor = new Redactor();
    const cases: [string, string][] = [
      ["GET https://api.telegram.org/bot123456789:AAH-abcdefghijklmnopqrstuvwxyz0123/getMe", "bot[redacted]/getMe"],
      ["token xoxb-1234-5678-abcdefghijkl used", "token [redacted] used"],
      ["app xapp-1-A1234-5678-abcdef", "app [redacted]"],
      ["Authorization: Bearer abc.def.ghi-123", "Authorization: Bearer [redacted]"],
      ["https://bot:hunter22@cloud.example/ocs", "https://[redacted]@cloud.example/ocs"],
      ["postgres://chorus:***@db.internal:5432/chorus", "postgres://chorus:***@db.internal:5432/chorus"],
      ["http://mac.local/api/v1/ping?password=hunter2&x=1", "http://mac.local/api/v1/ping?password=[redacted]&x=1"],
    ];
    for (const [input, expected] of cases) expect(redactor.text(input)).toContain(expected);
  });

  it("leaves short values alone: they would shred ordinary text", () => {
    expect(new Redactor(["abc"]).text("abc is fine")).toBe("abc is fine");
  });

  it("redacts an error's message, hint, details, stack and cause, and keeps its class", () => {
    const redactor = new Redactor([SECRET]);
    const cause = new Error(`socket to ${SECRET} closed`);
    const error = new RateLimitedError(`limit for ${SECRET}`, 5_000, {
      hint: `retry with ${SECRET}`,
      details: { url: `https://x/${SECRET}` },
      cause,
    });
    const out = redactor.error(error);
    expect(out).toBeInstanceOf(RateLimitedError);
    expect((out as RateLimitedError).retryAfterMs).toBe(5_000);
    expect(out.code).toBe("E_RATE_LIMITED");
    const all = JSON.stringify([out.message, out.hint, out.details, out.stack, (out.cause as Error).message]);
    expect(all).not.toContain(SECRET);
    expect(out.message).toBe("limit for [redacted]");
    expect(error.message).toBe(`limit for ${SECRET}`);
  });

  it("copies a cause with internal slots (a DOMException) as a plain error that can still be read", () => {
    const cause = new DOMException(`The operation for ${SECRET} was aborted`, "TimeoutError");
    const out = new Redactor([SECRET]).error(new ChorusError("E_PLATFORM", "timed out", { cause }));
    const copy = out.cause as Error;
    expect([copy.name, copy.message]).toEqual(["TimeoutError", "The operation for [redacted] was aborted"]);
    expect(JSON.stringify({ ...copy, name: copy.name, stack: copy.stack })).not.toContain(SECRET);
  });

  it("turns anything thrown into a ChorusError", () => {
    const out = new Redactor([SECRET]).error(new TypeError(`fetch ${SECRET} failed`));
    expect(out).toBeInstanceOf(ChorusError);
    expect(out.message).toBe("fetch [redacted] failed");
  });

  it("redacts status details", () => {
    expect(new Redactor([SECRET]).status({ state: "degraded", detail: `login as ${SECRET}` })).toEqual({
      state: "degraded",
      detail: "login as [redacted]",
    });
  });

  it("wraps a logger: messages, fields, errors in fields and child bindings", () => {
    const lines: unknown[][] = [];
    const sink = (level: string, bindings: Record<string, unknown> = {}): Logger => {
      const log =
        (name: string) =>
        (...args: unknown[]) =>
          lines.push([name, bindings, ...args]);
      return {
        debug: log(`${level}debug`),
        info: log(`${level}info`),
        warn: log(`${level}warn`),
        error: log(`${level}error`),
        child: (more) => sink(level, { ...bindings, ...more }),
      } as Logger;
    };
    const logger = new Redactor([SECRET]).logger(sink(""));
    logger.info(`plain ${SECRET}`);
    logger.warn({ url: `https://x/${SECRET}`, err: new Error(`bad ${SECRET}`) }, `msg ${SECRET}`);
    logger.child({ token: SECRET }).error({ n: 1 });
    const all = JSON.stringify(lines, (_, v) => (v instanceof Error ? { message: v.message, stack: v.stack } : v));
    expect(all).not.toContain(SECRET);
    expect(lines).toHaveLength(3);
    expect(lines[1]?.[3]).toBe("msg [redacted]");
    expect((lines[1]?.[2] as { err?: Error } | undefined)?.err).toBeInstanceOf(Error);
  });
});

describe("secretsOf", () => {
  it("reads the values at dotted keys, skipping what is absent", () => {
    const config = { botToken: "t-123456", auth: { password: "pw-123456" }, keys: ["k-1", "k-2"], none: 1 };
    expect(secretsOf(config, ["botToken", "auth.password", "keys", "missing.deep", "none"])).toEqual([
      "t-123456",
      "pw-123456",
      "k-1",
      "k-2",
    ]);
  });
});
