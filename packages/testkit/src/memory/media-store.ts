/** A medium's bytes as they were uploaded or sent by someone, under its media id. */
export interface StoredMedium {
  readonly id: string;
  readonly bytes: Uint8Array;
  readonly mime: string;
  readonly filename: string;
}

/** The memory platform's media: every byte uploaded, and how many bytes downloads served. */
export class MemoryMediaStore {
  readonly #media = new Map<string, StoredMedium>();
  #next = 1;
  /** Bytes `GET /v1/media/:id` has written to clients so far. */
  bytesServed = 0;

  /** Keeps `bytes` under a new media id. */
  put(bytes: Uint8Array, mime: string, filename: string): StoredMedium {
    const medium = { id: `med${this.#next++}`, bytes, mime, filename };
    this.#media.set(medium.id, medium);
    return medium;
  }

  get(id: string): StoredMedium | undefined {
    return this.#media.get(id);
  }
}
