export { ChannelStores } from "./channel-stores.js";
export { EventDeduper } from "./dedupe.js";
export {
  type ConversationRefsFile,
  conversationRefsPath,
  MessageIndex,
  type MessageIndexOptions,
  type MessageLookup,
} from "./message-index.js";
