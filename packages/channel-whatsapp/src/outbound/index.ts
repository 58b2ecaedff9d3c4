/** Outbound: sending text in parts with mentions and quotes, typing, and the chats' disappearing timers. */
export { DisappearingTimers } from "./disappearing.js";
export { createOutbound, type OutboundDeps, placeMentions, WHATSAPP_MAX_TEXT } from "./send.js";
