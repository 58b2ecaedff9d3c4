import type { GeoLocation, OutboundMedium, UploadKind } from "@chorus/core";
import type { Sql, SqlDb } from "../state/index.js";
import type { MediaStore } from "./types.js";

/** One item of a planned message, as its outbox row keeps it: which stored medium, sent as what. */
export interface PlannedMedium {
  readonly mediaId: string;
  readonly as: UploadKind;
  readonly filename: string;
  readonly mime: string;
  readonly size: number;
  readonly caption?: string;
}

/** The media and the location of one planned message (its text is the outbox row's text). */
export interface OutboxMedia {
  readonly media: readonly PlannedMedium[];
  readonly location?: GeoLocation;
}

/**
 * Records what an outbox row sends besides its text (in the caller's transaction, with the row): a
 * row of `outbox_media` per item, naming its medium (retention keeps the medium while the row is
 * pending), and one for the location.
 */
export async function recordOutboxMedia(sql: Sql, outboxId: number, planned: OutboxMedia): Promise<void> {
  let seq = 0;
  for (const item of planned.media) {
    await sql.run("INSERT INTO outbox_media (outbox_id, seq, media_id, item) VALUES ($1, $2, $3, $4)", [
      outboxId,
      seq++,
      item.mediaId,
      JSON.stringify(item),
    ]);
  }
  if (planned.location) {
    await sql.run("INSERT INTO outbox_media (outbox_id, seq, media_id, item) VALUES ($1, $2, NULL, $3)", [
      outboxId,
      seq,
      JSON.stringify({ location: planned.location }),
    ]);
  }
}

/** What an outbox row sends besides its text; undefined for a row of text alone. */
export async function outboxMediaOf(db: SqlDb, outboxId: number): Promise<OutboxMedia | undefined> {
  const rows = await db.all<{ media_id: string | null; item: string }>(
    "SELECT media_id, item FROM outbox_media WHERE outbox_id = $1 ORDER BY seq",
    [outboxId],
  );
  if (rows.length === 0) return undefined;
  const media: PlannedMedium[] = [];
  let location: GeoLocation | undefined;
  for (const row of rows) {
    const item = JSON.parse(row.item) as PlannedMedium | { location: GeoLocation };
    if ("location" in item) location = item.location;
    else media.push(item);
  }
  return { media, ...(location ? { location } : {}) };
}

/**
 * The planned items as a plugin's `send` takes them: each `open()` streams the stored bytes anew
 * (a retry, or a reply resumed after a crash, sends the same bytes).
 */
export function outboundMedia(store: MediaStore, planned: readonly PlannedMedium[]): OutboundMedium[] {
  return planned.map((item) => ({
    kind: item.as,
    mime: item.mime,
    filename: item.filename,
    size: item.size,
    ...(item.caption !== undefined ? { caption: item.caption } : {}),
    open: () => storedStream(store, item.mediaId),
  }));
}

/** A stored medium's bytes, opened on the first read (a plugin's `open()` is synchronous). */
export function storedStream(store: Pick<MediaStore, "open">, mediaId: string): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= (await store.open(mediaId)).stream.getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel(reason) {
        await reader?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
