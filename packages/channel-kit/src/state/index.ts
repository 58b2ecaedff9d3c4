export { ioError, readJsonFile, syncDirectory, type WriteFileAtomicOptions, writeFileAtomic } from "./atomic-file.js";
export { CoalescedWriter } from "./coalesced-writer.js";
export { CorruptFileError, corruptCopyPath, setCorruptFileAside } from "./corrupt-file.js";
export { FileStore, type FileStoreOptions } from "./file-store.js";
export { importLegacyFile, type LegacyFileImport } from "./legacy-import.js";
export { MemoryStore } from "./memory-store.js";
export { STORE_CONFORMANCE_CASES, type StoreConformanceCase } from "./store-conformance.js";
export { checkStoreKey, storeValueText } from "./store-values.js";
export { defaultStateWarning, type StateWarningHandler } from "./warnings.js";
