import { stat } from "node:fs/promises";
import {
  CorruptFileError,
  defaultStateWarning,
  ioError,
  readJsonFile,
  type StateWarningHandler,
  setCorruptFileAside,
  writeFileAtomic,
} from "@chorus/channel-kit/state";
import { ChorusError } from "@chorus/core";
import {
  describeSender,
  EXPIRED_KEPT_MS,
  emptyPairingFile,
  expired,
  newCode,
  normalizePairingCode,
  PAIRING_CODE_TTL_MS,
  type PairingEntry,
  type PairingFile,
  type PairingList,
  type PairingSender,
  type PendingPairing,
  pairingFileSchema,
} from "../../../src/testing/index.js";
import { withFileLock } from "./file-lock.js";

export interface PairingStoreOptions {
  /** The clock in epoch milliseconds, for tests. */
  now?: () => number;
  /** Unexpired requests allowed per channel account; more are refused (`E_RATE_LIMITED`). Default 20. */
  maxPendingPerAccount?: number;
  /** Problems recovered from (a corrupt file set aside); default: a process warning. */
  onWarning?: StateWarningHandler;
}

/**
 * Pairing requests and approved senders for `dmPolicy: "pairing"`, persisted atomically to one
 * JSON file. Re-reads the file when another process (the CLI) changed it.
 */
export class PairingStore {
  readonly file: string;
  #data: PairingFile = emptyPairingFile();
  /** Identity of the file as last read (inode, size, times), "missing" when absent. */
  #stamp = "";
  #queue: Promise<unknown> = Promise.resolve();
  readonly #now: () => number;
  readonly #maxPending: number;
  readonly #warn: StateWarningHandler;

  private constructor(file: string, options: PairingStoreOptions) {
    this.file = file;
    this.#now = options.now ?? Date.now;
    this.#maxPending = options.maxPendingPerAccount ?? 20;
    this.#warn = options.onWarning ?? defaultStateWarning;
  }

  /** Opens (or starts) the store at `file`; a corrupt file is set aside with a warning. */
  static async open(file: string, options: PairingStoreOptions = {}): Promise<PairingStore> {
    const store = new PairingStore(file, options);
    await store.#reload();
    return store;
  }

  /**
   * The sender's pairing code: the unexpired one they already have (`firstTime: false`), or a new
   * one valid for an hour (`firstTime: true`, the only time the caller should send it).
   */
  request(channel: string, accountId: string, sender: PairingSender): Promise<{ code: string; firstTime: boolean }> {
    return this.#mutate<{ code: string; firstTime: boolean }>((data, now) => {
      const mine = (p: PendingPairing) => p.channel === channel && p.accountId === accountId;
      const existing = data.pending.find((p) => mine(p) && p.senderId === sender.id && !expired(p, now));
      if (existing) return { result: { code: existing.code, firstTime: false }, changed: false };
      const live = data.pending.filter((p) => mine(p) && !expired(p, now)).length;
      if (live >= this.#maxPending) {
        throw new ChorusError(
          "E_RATE_LIMITED",
          `${channel} (account ${accountId}) already has ${live} pending pairing requests; no new code was issued`,
          {
            hint: "approve the ones you know with `chorus pairing approve <code>` or wait for them to expire (1 hour)",
          },
        );
      }
      const entry: PendingPairing = {
        channel,
        accountId,
        senderId: sender.id,
        ...(sender.name === undefined ? {} : { name: sender.name }),
        ...(sender.e164 === undefined ? {} : { e164: sender.e164 }),
        code: newCode(data),
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + PAIRING_CODE_TTL_MS).toISOString(),
      };
      data.pending = [...data.pending.filter((p) => !(mine(p) && p.senderId === sender.id)), entry];
      return { result: { code: entry.code, firstTime: true }, changed: true };
    });
  }

  /** Approves a pending code (any case); throws `E_INVALID_INPUT` when it is unknown, used or expired. */
  approve(code: string): Promise<PairingEntry> {
    return this.#mutate((data, now) => {
      const wanted = normalizePairingCode(code);
      const request = data.pending.find((p) => p.code === wanted);
      if (!request) {
        throw new ChorusError("E_INVALID_INPUT", `no pending pairing request has the code "${code.trim()}"`, {
          hint: "codes are used once and expire after an hour; run `chorus pairing list` to see the pending ones",
          details: { code: wanted },
        });
      }
      if (expired(request, now)) {
        throw new ChorusError(
          "E_INVALID_INPUT",
          `the pairing code "${wanted}" of ${describeSender(request)} on ${request.channel} expired at ${request.expiresAt}`,
          { hint: "ask them to send another direct message: they get a new code", details: { code: wanted } },
        );
      }
      const { createdAt: _created, expiresAt: _expires, ...who } = request;
      const entry: PairingEntry = { ...who, approvedAt: new Date(now).toISOString() };
      const same = (p: { channel: string; accountId: string; senderId: string }) =>
        p.channel === entry.channel && p.accountId === entry.accountId && p.senderId === entry.senderId;
      data.pending = data.pending.filter((p) => !same(p));
      data.approved = [...data.approved.filter((p) => !same(p)), entry];
      return { result: entry, changed: true };
    });
  }

  /** Whether the owner approved this sender on this channel account. */
  isApproved(channel: string, accountId: string, senderId: string): Promise<boolean> {
    return this.#exclusive(async () => {
      await this.#refresh();
      return this.#data.approved.some(
        (p) => p.channel === channel && p.accountId === accountId && p.senderId === senderId,
      );
    });
  }

  /** Unexpired requests (oldest first) and approved senders, ordered by channel and account. */
  list(): Promise<PairingList> {
    return this.#exclusive(async () => {
      await this.#refresh();
      const now = this.#now();
      const order = (a: { channel: string; accountId: string }, b: { channel: string; accountId: string }) =>
        a.channel.localeCompare(b.channel) || a.accountId.localeCompare(b.accountId);
      return {
        pending: this.#data.pending
          .filter((p) => !expired(p, now))
          .sort((a, b) => order(a, b) || a.createdAt.localeCompare(b.createdAt))
          .map((p) => ({ ...p })),
        approved: [...this.#data.approved]
          .sort((a, b) => order(a, b) || a.approvedAt.localeCompare(b.approvedAt))
          .map((p) => ({ ...p })),
      };
    });
  }

  /** Runs `fn` after the store's earlier operations, so read-modify-write never interleaves in-process. */
  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Re-reads the file, applies `change` to a copy, writes it when changed, and keeps what was written. */
  #mutate<T>(change: (data: PairingFile, now: number) => { result: T; changed: boolean }): Promise<T> {
    return this.#exclusive(() =>
      // The lock keeps the gateway and the CLI from overwriting each other's change.
      withFileLock(`${this.file}.lock`, async () => {
        await this.#reload();
        const now = this.#now();
        const data = structuredClone(this.#data);
        const { result, changed } = change(data, now);
        if (changed) {
          data.pending = data.pending.filter((p) => Date.parse(p.expiresAt) + EXPIRED_KEPT_MS > now);
          await writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`);
          await this.#reload();
        }
        return result;
      }),
    );
  }

  async #refresh(): Promise<void> {
    if ((await stampOf(this.file)) !== this.#stamp) await this.#reload();
  }

  /** Reads the file; the stamp is taken first, so a write racing the read is seen by the next refresh. */
  async #reload(): Promise<void> {
    const stamp = await stampOf(this.file);
    let raw: unknown;
    try {
      raw = await readJsonFile<unknown>(this.file);
    } catch (error) {
      if (!(error instanceof CorruptFileError)) throw error;
      await this.#setAside(error.message);
      return;
    }
    if (raw === undefined) {
      this.#data = emptyPairingFile();
      this.#stamp = stamp;
      return;
    }
    const parsed = pairingFileSchema.safeParse(raw);
    if (!parsed.success) {
      const problem = parsed.error.issues.map((i) => `${i.path.join(".") || "file"}: ${i.message}`).join("; ");
      await this.#setAside(`${this.file} is not a pairing file (${problem})`);
      return;
    }
    this.#data = parsed.data;
    this.#stamp = stamp;
  }

  async #setAside(problem: string): Promise<void> {
    const aside = await setCorruptFileAside(this.file, { now: new Date(this.#now()) });
    this.#warn(`${problem}; moved it to ${aside} and started with no pairing requests or approvals`);
    this.#data = emptyPairingFile();
    this.#stamp = await stampOf(this.file);
  }
}

async function stampOf(file: string): Promise<string> {
  try {
    const s = await stat(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw ioError("check", file, error);
  }
}
