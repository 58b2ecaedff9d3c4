import type { Logger } from "@chorus/core";
import { type GroupMetadata, makeWASocket, proto, type WAMessageKey, type WASocket } from "@whiskeysockets/baileys";
import type { WhatsAppConfig } from "../config.js";
import type { WhatsAppAuthState } from "../link/auth-state.js";
import { baileysLogger } from "./baileys-logger.js";
import { guardFrames } from "./frame-guard.js";

export type { WASocket } from "@whiskeysockets/baileys";

/**
 * History the phone pushes after linking: only the bootstrap (recent chats with their LID ↔
 * phone-number mappings) and push names. Turning all of it off makes Baileys warn that it
 * loses those mappings; the rest (full and recent message history) is never agent input.
 */
const WANTED_HISTORY = new Set<proto.Message.HistorySyncType | null | undefined>([
  proto.Message.HistorySyncType.INITIAL_BOOTSTRAP,
  proto.Message.HistorySyncType.PUSH_NAME,
]);

/** What a Baileys socket of one account is made with. */
export interface SocketOptions {
  readonly config: WhatsAppConfig;
  readonly auth: WhatsAppAuthState;
  readonly logger: Logger;
  /** The content of a message the bot sent, for a recipient's retry request. */
  readonly getMessage?: (key: WAMessageKey) => Promise<proto.IMessage | undefined>;
  /** A group's metadata from the instance's cache (fetched into it when missing); undefined lets Baileys ask. */
  readonly cachedGroupMetadata?: (jid: string) => Promise<GroupMetadata | undefined>;
}

/**
 * A Baileys socket for one account, pointed at `waWebSocketUrl`, persisting credentials as
 * Baileys updates them. It connects at once; the caller listens to `connection.update`.
 */
export function openSocket(options: SocketOptions): WASocket {
  const { config, auth, logger } = options;
  const socket = makeWASocket({
    waWebSocketUrl: config.waWebSocketUrl,
    auth: auth.state,
    logger: baileysLogger(logger),
    // The phone lists the device under its first field; "Chrome" picks the desktop web client protocol.
    browser: [config.browserName, "Chrome", "1.0"],
    connectTimeoutMs: config.connectTimeoutMs,
    // A query WhatsApp never answers (a group lookup, a device list) fails like a missing ack.
    defaultQueryTimeoutMs: config.ackTimeoutMs,
    qrTimeout: config.qrTimeoutMs,
    // Online presence would silence notifications on the owner's phone.
    markOnlineOnConnect: false,
    syncFullHistory: false,
    shouldSyncHistoryMessage: (notification) => WANTED_HISTORY.has(notification.syncType),
    // The bot's own sends need not come back as events; its sent ids are recorded instead.
    emitOwnEvents: false,
    getMessage: async (key) => options.getMessage?.(key),
    cachedGroupMetadata: async (jid) => options.cachedGroupMetadata?.(jid),
  });
  guardFrames(socket, logger);
  socket.ev.on("creds.update", () => {
    auth.saveCreds().catch((error: unknown) => logger.error({ err: error }, "could not save WhatsApp credentials"));
  });
  return socket;
}

/** The status code a closed connection reported (`DisconnectReason`), undefined when it gave none. */
export function disconnectCode(error: Error | undefined): number | undefined {
  const boom = error as { output?: { statusCode?: unknown } } | undefined;
  return typeof boom?.output?.statusCode === "number" ? boom.output.statusCode : undefined;
}
