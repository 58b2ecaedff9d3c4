import { KeyedQueue } from "@chorus/channel-kit";
import type { StateStore } from "../state/index.js";
import type { ItemRecord } from "./types.js";

/** The `kv` scope of what intake made of each message's attachments. */
export const INTAKE_SCOPE = "inbound-media";

/** As long as the inbox keeps a handled row (its dedupe window): after that no turn reads it again. */
const KEPT_MS = 7 * 86_400_000;
/** How often the scope's expired entries are deleted, at most. */
const PRUNE_EVERY_MS = 3_600_000;

/**
 * What intake made of each message's attachments, by the message's inbox row, on the state layer
 * (every gateway of a cluster reads it): a message decided again — its turn cut short by a crash or
 * a shutdown, or a buffered group message read as context — finds its media already in the store,
 * its voice notes transcribed, and downloads nothing twice. The inbox row stays the source of truth
 * of the message; this is what the gateway learned of it.
 */
export class IntakeRecords {
  #prunedAt = 0;
  /** Updates of one row run one after another here. */
  readonly #updates = new KeyedQueue();

  constructor(private readonly state: Pick<StateStore, "kv">) {}

  /** The records of inbox row `row`'s attachments, by index (empty when none was made yet). */
  async read(row: number): Promise<(ItemRecord | undefined)[]> {
    const raw = await this.state.kv.get(INTAKE_SCOPE, String(row), Date.now());
    if (raw === undefined) return [];
    try {
      const items = (JSON.parse(raw) as { items?: unknown }).items;
      return Array.isArray(items) ? items.map((item) => (isRecord(item) ? item : undefined)) : [];
    } catch {
      return [];
    }
  }

  /**
   * Reads row `row`'s records and hands them to `work`, which changes them in place and says whether
   * it did; then they are kept. One update of a row at a time in this gateway: two readers of one
   * message (its turn, the event stream) never download an attachment twice nor drop each other's records.
   */
  async update(
    row: number,
    work: (items: (ItemRecord | undefined)[]) => Promise<boolean>,
  ): Promise<(ItemRecord | undefined)[]> {
    return this.#updates.run(String(row), async () => {
      const items = await this.read(row);
      if (await work(items)) await this.write(row, items);
      return items;
    });
  }

  /** Keeps row `row`'s records (the whole list, `null` where an attachment has none yet). */
  async write(row: number, items: readonly (ItemRecord | undefined)[]): Promise<void> {
    const now = Date.now();
    const value = JSON.stringify({ items: items.map((item) => item ?? null) });
    await this.state.kv.set(INTAKE_SCOPE, String(row), value, now + KEPT_MS);
    if (now - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now;
      await this.state.kv.prune(INTAKE_SCOPE, now);
    }
  }
}

function isRecord(value: unknown): value is ItemRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
