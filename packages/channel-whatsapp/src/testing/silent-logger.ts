import type { SocketConfig } from "@whiskeysockets/baileys";

/** The logger interface Baileys takes (`ILogger`, not exported by name). */
export type BaileysLogger = SocketConfig["logger"];

/** A Baileys logger that drops everything: pass it as `logger` to keep test output clean. */
export const silentBaileysLogger: BaileysLogger = {
  level: "silent",
  child: () => silentBaileysLogger,
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};
