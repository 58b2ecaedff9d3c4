import type { SignalDataSet, SignalDataTypeMap, SignalKeyStore } from "@whiskeysockets/baileys";

/** A Baileys `SignalKeyStore` held in memory: what a test bot or a fake device keeps between messages. */
export function createMemoryKeyStore(): SignalKeyStore {
  const tables = new Map<string, Map<string, unknown>>();
  return {
    get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]): { [id: string]: SignalDataTypeMap[T] } {
      const table = tables.get(type);
      const found: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const id of ids) {
        const value = table?.get(id);
        if (value !== undefined) found[id] = value as SignalDataTypeMap[T];
      }
      return found;
    },
    set(data: SignalDataSet): void {
      for (const [type, entries] of Object.entries(data)) {
        const table = tables.get(type) ?? new Map<string, unknown>();
        tables.set(type, table);
        for (const [id, value] of Object.entries(entries ?? {})) {
          if (value === null || value === undefined) table.delete(id);
          else table.set(id, value);
        }
      }
    },
    clear(): void {
      tables.clear();
    },
  };
}
