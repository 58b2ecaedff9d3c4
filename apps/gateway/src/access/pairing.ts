import { randomInt } from "node:crypto";
import { join } from "node:path";
import { z } from "@chorus/core";
import type { ChorusPaths } from "../support/index.js";

/*
 * Direct-chat pairing (`dmPolicy: "pairing"`): what a request and an approval are, the codes, and
 * the file they are kept in. `PairingStore` (pairing-store.ts) reads and changes that file.
 */

/** Letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L). */
export const PAIRING_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const PAIRING_CODE_LENGTH = 6;
/** How long a pairing code stays valid. */
export const PAIRING_CODE_TTL_MS = 3_600_000;
/** Expired requests are kept this long so approving a late code says "expired", not "unknown". */
export const EXPIRED_KEPT_MS = 86_400_000;

/** Who asked to pair. */
export interface PairingSender {
  id: string;
  name?: string | undefined;
  e164?: string | undefined;
}

/** A sender of one channel account, as pending and approved entries name them. */
export interface PairingSubject {
  channel: string;
  accountId: string;
  senderId: string;
  name?: string | undefined;
  e164?: string | undefined;
}

/** A code waiting for the owner's `chorus pairing approve`. */
export interface PendingPairing extends PairingSubject {
  code: string;
  /** ISO timestamps. */
  createdAt: string;
  expiresAt: string;
}

/** A sender the owner approved: may send direct messages on that channel account. */
export interface PairingEntry extends PairingSubject {
  /** The code that was approved. */
  code: string;
  approvedAt: string;
}

/** Everything in the store: unexpired requests and approved senders. */
export interface PairingList {
  pending: PendingPairing[];
  approved: PairingEntry[];
}

const iso = z.string().refine((text) => !Number.isNaN(Date.parse(text)), "expected an ISO timestamp");
const who = {
  channel: z.string().min(1),
  accountId: z.string().min(1),
  senderId: z.string().min(1),
  name: z.string().optional(),
  e164: z.string().optional(),
  code: z.string().min(1),
};
/** The JSON of `<home>/state/pairing.json`. */
export const pairingFileSchema = z.object({
  version: z.literal(1),
  pending: z.array(z.object({ ...who, createdAt: iso, expiresAt: iso })),
  approved: z.array(z.object({ ...who, approvedAt: iso })),
});
export type PairingFile = z.output<typeof pairingFileSchema>;

/** `<home>/state/pairing.json`: where the gateway and the CLI keep pairing requests and approvals. */
export function pairingFilePath(paths: Pick<ChorusPaths, "state">): string {
  return join(paths.state, "pairing.json");
}

/** Upper case without spaces and dashes: what a person may type for a code. */
export function normalizePairingCode(code: string): string {
  return code.replace(/[\s-]/g, "").toUpperCase();
}

/** A pairing file with no requests and no approvals. */
export function emptyPairingFile(): PairingFile {
  return { version: 1, pending: [], approved: [] };
}

/** True when a request's code can no longer be approved. */
export function expired(request: PendingPairing, now: number): boolean {
  return Date.parse(request.expiresAt) <= now;
}

/** A fresh code no request or approval in `data` has. */
export function newCode(data: PairingFile): string {
  const taken = new Set([...data.pending, ...data.approved].map((p) => p.code));
  for (;;) {
    let code = "";
    for (let i = 0; i < PAIRING_CODE_LENGTH; i++)
      code += PAIRING_CODE_ALPHABET[randomInt(PAIRING_CODE_ALPHABET.length)];
    if (!taken.has(code)) return code;
  }
}

/** `Name (+E164, id …)` for messages and listings. */
export function describeSender(entry: {
  senderId: string;
  name?: string | undefined;
  e164?: string | undefined;
}): string {
  const facts = [entry.e164, `id ${entry.senderId}`].filter((part) => part !== undefined).join(", ");
  return entry.name ? `${entry.name} (${facts})` : facts;
}
