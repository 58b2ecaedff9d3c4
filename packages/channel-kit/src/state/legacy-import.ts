import { link, unlink } from "node:fs/promises";
import type { ChannelStore, JsonValue, Logger, StoreSetOptions } from "@chorus/core";
import { readJsonFile } from "./atomic-file.js";
import { CorruptFileError, setCorruptFileAside } from "./corrupt-file.js";

export interface LegacyFileImport {
  /** The file an earlier version of the channel wrote (in its `stateDir`). */
  file: string;
  /** The store entries its parsed content holds; throw to refuse content of the wrong shape. */
  entries(content: unknown): Iterable<readonly [string, JsonValue]>;
  /** Expiry of the imported entries. */
  options?: StoreSetOptions;
}

/**
 * Moves what an earlier version kept in its own JSON file into the channel's store, once: each
 * entry is written unless the store already has that key (a newer value wins), then the file is
 * renamed to `<file>.imported`, so a restart does not import it again and nothing is lost. A file
 * that cannot be read is set aside with a warning. Resolves with the number of entries imported.
 */
export async function importLegacyFile(store: ChannelStore, logger: Logger, spec: LegacyFileImport): Promise<number> {
  let content: unknown;
  try {
    content = await readJsonFile<unknown>(spec.file);
  } catch (error) {
    if (!(error instanceof CorruptFileError)) throw error;
    const aside = await setCorruptFileAside(spec.file);
    logger.warn({ file: spec.file, movedTo: aside }, `could not import ${spec.file} (not valid JSON); set it aside`);
    return 0;
  }
  if (content === undefined) return 0;
  let entries: (readonly [string, JsonValue])[];
  try {
    entries = [...spec.entries(content)];
  } catch (error) {
    const aside = await setCorruptFileAside(spec.file);
    logger.warn(
      { file: spec.file, movedTo: aside, problem: (error as Error).message },
      `could not import ${spec.file} (${(error as Error).message}); set it aside`,
    );
    return 0;
  }
  for (const [key, value] of entries) await store.update(key, (current) => current ?? value, spec.options);
  const kept = await keepImported(spec.file);
  logger.info(
    { file: spec.file, entries: entries.length, keptAs: kept },
    "imported earlier channel state into the store",
  );
  return entries.length;
}

/** Renames `file` to `<file>.imported` (or `.imported-N`), never overwriting an earlier one. */
async function keepImported(file: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const target = attempt === 0 ? `${file}.imported` : `${file}.imported-${attempt}`;
    try {
      // link refuses an existing target, where rename would overwrite it.
      await link(file, target);
      await unlink(file);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && attempt < 100) continue;
      throw error;
    }
  }
}
