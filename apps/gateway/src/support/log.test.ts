import { Redactor } from "@chorus/channel-kit";
import { describe, expect, it } from "vitest";
import { createLogger, logFormat } from "./log.js";

describe("log format and levels", () => {
  it("pretty on a terminal, JSON lines otherwise; CHORUS_LOG_FORMAT decides when set", () => {
    expect(logFormat({}, true)).toBe("pretty");
    expect(logFormat({}, false)).toBe("json");
    expect(logFormat({ CHORUS_LOG_FORMAT: "json" }, true)).toBe("json");
    expect(logFormat({ CHORUS_LOG_FORMAT: "pretty" }, false)).toBe("pretty");
  });

  it("a pretty line: time, level, message and fields, secrets still redacted", () => {
    const lines: string[] = [];
    const logger = createLogger({ format: "pretty", destination: { write: (line: string) => lines.push(line) } });
    logger.warn({ channel: "telegram", token: "s3cret-token" }, "could not send");
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d WARN {2}could not send {2}channel=telegram token=\[redacted\]\n$/);
  });

  it("JSON lines by default off a terminal, at info unless --verbose", () => {
    const lines: string[] = [];
    const logger = createLogger({ format: "json", destination: { write: (line: string) => lines.push(line) } });
    logger.debug("hidden");
    logger.info({ n: 1 }, "shown");
    expect(lines.map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ level: 30, msg: "shown", n: 1 })]);
  });
});

describe("secrets by value", () => {
  const SECRET = "sk-log/canary+Key=0123456789";
  const capture = () => {
    const lines: string[] = [];
    const logger = createLogger({
      format: "json",
      destination: { write: (line: string) => lines.push(line) },
      redactor: new Redactor([SECRET]),
    });
    return { logger, lines };
  };

  it("a known secret leaves no spelling in the message, fields, errors, their causes or child bindings", () => {
    const { logger, lines } = capture();
    logger.info(`raw ${SECRET}`);
    logger.warn(
      { url: `https://x/?q=${encodeURIComponent(SECRET)}`, nested: { deep: [JSON.stringify({ k: SECRET })] } },
      "fields",
    );
    logger.error(
      { err: new Error(`failed with ${SECRET}`, { cause: new Error(Buffer.from(SECRET).toString("base64")) }) },
      "err",
    );
    logger
      .child({ account: SECRET })
      .child({ more: encodeURIComponent(SECRET) })
      .info("%s interpolated", SECRET);
    const all = lines.join("");
    expect(lines).toHaveLength(4);
    for (const form of [SECRET, encodeURIComponent(SECRET), Buffer.from(SECRET).toString("base64").replace(/=+$/, "")])
      expect(all).not.toContain(form);
    expect(JSON.parse(lines[3] as string)).toMatchObject({
      account: "[redacted]",
      more: "[redacted]",
      msg: "[redacted] interpolated",
    });
  });

  it("a key named as a secret is censored at any depth, whatever its value; other lines stay valid JSON", () => {
    const { logger, lines } = capture();
    logger.info(
      { config: { channels: { telegram: { botToken: "not-known-by-value" } } }, headers: { authorization: "x" } },
      "keys",
    );
    // A URL with a port, then an address with an @: one pattern over the whole line would join them.
    logger.info({ url: "http://127.0.0.1:7800", from: "ann@example.com" }, "two fields");
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      config: { channels: { telegram: { botToken: "[redacted]" } } },
      headers: { authorization: "[redacted]" },
    });
    expect(JSON.parse(lines[1] as string)).toMatchObject({ url: "http://127.0.0.1:7800", from: "ann@example.com" });
  });
});
