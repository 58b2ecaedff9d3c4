import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseMessageRef } from "@chorus/core";
import type { Logger } from "pino";
import { PAIRING_KEY, PAIRING_SCOPE, pairingFilePath, pairingFileSchema } from "../access/index.js";
import { parseTranscriptLine, readSessionsFile, rowOf } from "../sessions/index.js";
import { type StateStore, storeScope } from "../state/index.js";
import type { ChorusPaths } from "../support/index.js";

/** What was imported, by kind. */
export interface ImportCounts {
  sessions: number;
  transcriptEntries: number;
  messageRefs: number;
  pairing: number;
  storeEntries: number;
}

async function list(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return undefined;
  }
}

/**
 * On the first start on a database, imports what an earlier release kept in files under the
 * home — `sessions.json` and the JSONL transcripts of every agent, the message index files, the
 * pairing file, the channel stores under `<home>/store/…` — without loss. What the database
 * already holds wins. The files are left where they are (`sessions.json` goes on as the mirror);
 * the database records that this home was imported, so they are never read again.
 */
export async function importLegacyHome(
  state: StateStore,
  paths: ChorusPaths,
  logger: Logger,
): Promise<ImportCounts | undefined> {
  const marker = `imported:${paths.home}`;
  if ((await state.meta(marker)) !== undefined) return undefined;
  const counts: ImportCounts = { sessions: 0, transcriptEntries: 0, messageRefs: 0, pairing: 0, storeEntries: 0 };
  await state.db.tx(async (sql) => {
    for (const agentId of await list(join(paths.home, "agents"))) {
      const dir = join(paths.home, "agents", agentId, "sessions");
      const raw = await readJson(join(dir, "sessions.json"));
      if (raw !== undefined) {
        const read = readSessionsFile(join(dir, "sessions.json"), raw);
        for (const problem of read.problems) logger.warn({ problem }, "import: skipped an invalid session");
        for (const entry of read.entries) {
          if (await state.sessions.get(entry.key, sql)) continue;
          await state.sessions.save(sql, [rowOf(entry)], Date.now());
          counts.sessions++;
        }
      }
      for (const name of await list(dir)) {
        if (!name.endsWith(".jsonl")) continue;
        const sessionId = name.slice(0, -".jsonl".length);
        if ((await state.transcripts.read(sessionId, 1, sql)).length > 0) continue;
        const lines = (await readFile(join(dir, name), "utf8")).split("\n");
        const entries = [];
        for (const [i, line] of lines.entries()) {
          if (line.trim() === "") continue;
          try {
            entries.push(parseTranscriptLine(line));
          } catch (error) {
            // A torn last line was never part of the transcript; another bad line is said.
            if (i < lines.length - 1)
              logger.warn(
                { file: name, line: i + 1, err: (error as Error).message },
                "import: skipped a transcript line",
              );
          }
        }
        await state.transcripts.append(sql, sessionId, entries as never[]);
        counts.transcriptEntries += entries.length;
      }
    }
    const indexDir = join(paths.state, "message-index");
    for (const channel of await list(indexDir)) {
      for (const account of await list(join(indexDir, channel))) {
        for (const name of await list(join(indexDir, channel, account))) {
          if (!name.endsWith(".json")) continue;
          const file = (await readJson(join(indexDir, channel, account, name))) as { refs?: unknown[] } | undefined;
          const refs = (Array.isArray(file?.refs) ? file.refs : []).flatMap((value) => {
            try {
              return [parseMessageRef(value)];
            } catch {
              return [];
            }
          });
          await state.refs.put(sql, refs);
          counts.messageRefs += refs.length;
        }
      }
    }
    const pairing = pairingFileSchema.safeParse(await readJson(pairingFilePath(paths)));
    if (pairing.success && (await state.kv.get(PAIRING_SCOPE, PAIRING_KEY, Date.now(), sql)) === undefined) {
      await state.kv.set(PAIRING_SCOPE, PAIRING_KEY, JSON.stringify(pairing.data), undefined, sql);
      counts.pairing = pairing.data.pending.length + pairing.data.approved.length;
    }
    for (const channelDir of await list(paths.stores)) {
      for (const accountDir of await list(join(paths.stores, channelDir))) {
        const scope = storeScope(decodeURIComponent(channelDir), decodeURIComponent(accountDir));
        for (const name of await list(join(paths.stores, channelDir, accountDir))) {
          if (!name.endsWith(".json") || name.startsWith(".")) continue;
          const file = (await readJson(join(paths.stores, channelDir, accountDir, name))) as
            | { entries?: Record<string, { value?: unknown; expiresAt?: unknown }> }
            | undefined;
          for (const [key, item] of Object.entries(file?.entries ?? {})) {
            if (typeof item !== "object" || item === null || !("value" in item)) continue;
            if ((await state.kv.get(scope, key, 0, sql)) !== undefined) continue;
            const expiresAt = typeof item.expiresAt === "number" ? item.expiresAt : undefined;
            await state.kv.set(scope, key, JSON.stringify(item.value), expiresAt, sql);
            counts.storeEntries++;
          }
        }
      }
    }
    await sql.run("INSERT INTO meta (key, value) VALUES ($1, $2)", [marker, new Date().toISOString()]);
  });
  if (Object.values(counts).some((n) => n > 0)) {
    logger.info(
      { ...counts, from: paths.home },
      "imported the files of an earlier release into the state database (the files are left in place)",
    );
  }
  return counts;
}
