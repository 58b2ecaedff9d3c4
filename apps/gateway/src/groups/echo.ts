import { createHash } from "node:crypto";

/**
 * Echo suppression on the combined batch (DESIGN §4): the same batch string twice in a row
 * without a mention gets one answer. A session keeps the digest of its last batch
 * (`context-store.ts`, on the state layer, so every gateway sees the same one).
 */
export function echoDigest(batch: string): string {
  return createHash("sha256").update(batch).digest("base64");
}

/** True when the batch whose digest is `digest` repeats the session's previous one and there was no mention. */
export function isEcho(previous: string | undefined, digest: string, mentioned: boolean): boolean {
  return !mentioned && previous === digest;
}
