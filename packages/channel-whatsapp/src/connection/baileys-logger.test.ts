import type { Logger } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { baileysLogger } from "./baileys-logger.js";

/** A logger that keeps what it was told, as pino would: level, fields, message, bindings. */
function recordingLogger(lines: unknown[][], bindings: Record<string, unknown> = {}): Logger {
  const at =
    (level: string) =>
    (first: unknown, message?: string): void => {
      lines.push([level, bindings, first, message]);
    };
  return {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: (more) => recordingLogger(lines, { ...bindings, ...more }),
  };
}

describe("baileysLogger", () => {
  it("quiets Baileys: info → debug, error → warn, trace dropped; children keep their bindings", () => {
    const lines: unknown[][] = [];
    const logger = baileysLogger(recordingLogger(lines));
    expect(logger.level).toBe("info");
    logger.trace({ xml: "<iq/>" }, "recv xml");
    logger.info("opened connection to WA");
    logger.error({ err: "x" }, "stream errored out");
    logger.child({ class: "baileys" }).warn({ jid: "1@lid" }, "no session");
    logger.debug(42, "odd first argument");
    expect(lines).toEqual([
      ["debug", {}, "opened connection to WA", undefined],
      ["warn", {}, { err: "x" }, "stream errored out"],
      ["warn", { class: "baileys" }, { jid: "1@lid" }, "no session"],
      ["debug", {}, { value: 42 }, "odd first argument"],
    ]);
  });
});
