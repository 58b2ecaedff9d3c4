/** The connection: one Baileys socket at a time, reconnects with the kit's backoff, and WhatsApp's acks. */
export { type AckSource, MessageAcks, type PendingAck } from "./acks.js";
export { baileysLogger } from "./baileys-logger.js";
export { type ConnectionOptions, WhatsAppConnection } from "./connection.js";
export { guardFrames } from "./frame-guard.js";
export { disconnectCode, openSocket, type SocketOptions, type WASocket } from "./socket.js";
