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
