import { ChorusError } from "@chorus/core";
import type { StateStore } from "../state/index.js";
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
} from "./pairing.js";

/** Where pairing lives in the state layer's `kv` table. */
export const PAIRING_SCOPE = "gateway";
export const PAIRING_KEY = "pairing";

export interface PairingStoreOptions {
  /** The clock in epoch milliseconds, for tests. */
  now?: () => number;
  /** Unexpired requests allowed per channel account; more are refused (`E_RATE_LIMITED`). Default 20. */
  maxPendingPerAccount?: number;
  /** Problems recovered from (an unreadable pairing document); default: a process warning. */
  onWarning?: (message: string) => void;
}

/**
 * Pairing requests and approved senders for `dmPolicy: "pairing"`, one document in the state
 * layer; every change is one locked read-modify-write transaction, so the gateway, the CLI and
 * other gateways on the same database never overwrite each other's change.
 */
export class PairingStore {
  readonly #now: () => number;
  readonly #maxPending: number;
  readonly #warn: (message: string) => void;

  private constructor(
    private readonly state: StateStore,
    options: PairingStoreOptions,
  ) {
    this.#now = options.now ?? Date.now;
    this.#maxPending = options.maxPendingPerAccount ?? 20;
    this.#warn = options.onWarning ?? ((message) => process.emitWarning(message));
  }

  /** Opens the store on the state layer. */
  static async open(state: StateStore, options: PairingStoreOptions = {}): Promise<PairingStore> {
    return new PairingStore(state, options);
  }

  /** Where the pairing state is (for messages). */
  get where(): string {
    return this.state.where;
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
    return this.#read().then((data) =>
      data.approved.some((p) => p.channel === channel && p.accountId === accountId && p.senderId === senderId),
    );
  }

  /** Unexpired requests (oldest first) and approved senders, ordered by channel and account. */
  list(): Promise<PairingList> {
    return this.#read().then((data) => {
      const now = this.#now();
      const order = (a: { channel: string; accountId: string }, b: { channel: string; accountId: string }) =>
        a.channel.localeCompare(b.channel) || a.accountId.localeCompare(b.accountId);
      return {
        pending: data.pending
          .filter((p) => !expired(p, now))
          .sort((a, b) => order(a, b) || a.createdAt.localeCompare(b.createdAt))
          .map((p) => ({ ...p })),
        approved: [...data.approved]
          .sort((a, b) => order(a, b) || a.approvedAt.localeCompare(b.approvedAt))
          .map((p) => ({ ...p })),
      };
    });
  }

  async #read(): Promise<PairingFile> {
    return this.#parse(await this.state.kv.get(PAIRING_SCOPE, PAIRING_KEY, this.#now()));
  }

  #parse(text: string | undefined): PairingFile {
    if (text === undefined) return emptyPairingFile();
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const parsed = pairingFileSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    this.#warn(
      `the pairing state in ${this.state.where} was unreadable; started with no pairing requests or approvals`,
    );
    return emptyPairingFile();
  }

  /** Reads, changes and writes the pairing document in one locked transaction. */
  #mutate<T>(change: (data: PairingFile, now: number) => { result: T; changed: boolean }): Promise<T> {
    return this.state.kv.update(PAIRING_SCOPE, PAIRING_KEY, async (sql) => {
      const now = this.#now();
      const data = structuredClone(this.#parse(await this.state.kv.get(PAIRING_SCOPE, PAIRING_KEY, now, sql)));
      const { result, changed } = change(data, now);
      if (changed) {
        data.pending = data.pending.filter((p) => Date.parse(p.expiresAt) + EXPIRED_KEPT_MS > now);
        await this.state.kv.set(PAIRING_SCOPE, PAIRING_KEY, JSON.stringify(data), undefined, sql);
      }
      return result;
    });
  }
}
