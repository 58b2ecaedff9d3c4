import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { type ChannelStore, isChorusError, type Logger } from "@chorus/core";
import { fileStream, openForReading } from "../media/index.js";
import { MAX_MEDIUM_BYTES } from "./media-kinds.js";
import { MEDIUM_ID, type WebchatMedia } from "./media-store.js";
import { json, MESSAGES, storedMessage } from "./stored.js";

/** Where versions before the media store kept the webchat's media: `<stateDir>/media/<wm_…>`, one file each. */
export const LEGACY_MEDIA_DIR = "media";

/**
 * Moves an older version's media files into the gateway's media store, once: the file of each medium
 * a kept message names is streamed in and the message rewritten with its `mediaId` (its id, which
 * the page and inbox rows know it by, stays), then the directory is removed (files no kept message
 * names go with it). A file that is gone or over the limit is left out (its medium shows as no
 * longer kept); any other failure (the database) throws with the files still there, so the next
 * start tries again, skipping the messages already rewritten. Resolves with the files imported.
 */
export async function importLegacyMedia(
  store: ChannelStore,
  media: WebchatMedia,
  stateDir: string,
  logger: Logger,
): Promise<number> {
  const dir = join(stateDir, LEGACY_MEDIA_DIR);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  const files = new Set(names.filter((name) => MEDIUM_ID.test(name)));
  const importOne = async (id: string, filename: string): Promise<string | undefined> => {
    if (!files.has(id)) return undefined;
    try {
      const file = fileStream(() => openForReading(join(dir, id), `The older webchat medium ${id}`));
      return (await media.put(file, { maxBytes: MAX_MEDIUM_BYTES, filename })).mediaId;
    } catch (error) {
      // Gone (E_MESSAGE_NOT_FOUND) or over the limit: left out, shown as no longer kept.
      if (!(isChorusError(error) && (error.code === "E_MESSAGE_NOT_FOUND" || error.code === "E_TOO_LARGE")))
        throw error;
      logger.warn({ medium: id, err: (error as Error).message }, "webchat: could not import an older medium");
      return undefined;
    }
  };
  let imported = 0;
  for (const entry of await store.list(MESSAGES)) {
    const parsed = storedMessage.safeParse(entry.value);
    if (!parsed.success || !parsed.data.media?.some((medium) => medium.mediaId === undefined)) continue;
    const moved = [];
    for (const medium of parsed.data.media) {
      const mediaId = medium.mediaId ?? (await importOne(medium.id, medium.filename));
      if (mediaId !== undefined && medium.mediaId === undefined) imported++;
      moved.push(mediaId === undefined ? medium : { ...medium, mediaId });
    }
    await store.set(entry.key, json({ ...parsed.data, media: moved }));
  }
  await rm(dir, { recursive: true, force: true });
  logger.info({ imported, files: names.length }, "webchat: older media files moved into the media store");
  return imported;
}
