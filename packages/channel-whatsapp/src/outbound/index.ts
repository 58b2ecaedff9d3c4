/** Outbound: sending text in parts with mentions and quotes, typing, and the chats' disappearing timers. */
export { DisappearingTimers } from "./disappearing.js";
export { type OutboundDeps, placeMentions, WHATSAPP_MAX_TEXT, WhatsAppOutbound } from "./send.js";
