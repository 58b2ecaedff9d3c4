export { ioError, readJsonFile, syncDirectory, type WriteFileAtomicOptions, writeFileAtomic } from "./atomic-file.js";
export { CoalescedWriter } from "./coalesced-writer.js";
export { CorruptFileError, corruptCopyPath, setCorruptFileAside } from "./corrupt-file.js";
export { EventDeduper } from "./dedupe.js";
export {
  type ConversationRefsFile,
  conversationRefsPath,
  MessageIndex,
  type MessageIndexOptions,
  type MessageLookup,
} from "./message-index.js";
export { defaultStateWarning, type StateWarningHandler } from "./warnings.js";
