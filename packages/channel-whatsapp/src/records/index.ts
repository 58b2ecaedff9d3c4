/** What an account keeps in `ctx.store`: the message log, and the import of earlier versions' files. */
export { importLegacyState, LEGACY_FILES } from "./legacy-state.js";
export { type LoggedMessage, MESSAGE_LOG_TTL_MS, MessageLog } from "./message-log.js";
