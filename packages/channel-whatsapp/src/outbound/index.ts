/** Outbound: sending text in parts with mentions and quotes, media and locations, typing, and the chats' disappearing timers. */
export { DisappearingTimers } from "./disappearing.js";
export { createOutbound, type OutboundDeps, placeMentions } from "./send.js";
export { WHATSAPP_MAX_TEXT } from "./steps.js";
