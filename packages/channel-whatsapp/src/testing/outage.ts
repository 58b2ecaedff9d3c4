import { randomBytes } from "node:crypto";
import type { PlatformFault } from "@chorus/testkit";
import { frame } from "./frame-reader.js";

/**
 * How the fake misbehaves while `fake.fault(kind)` holds, in WhatsApp's terms:
 * - `refuse`: logins get `<failure reason="503">`, iqs `<error code="503">`, messages an ack with
 *   `error="503"` (nothing is filed);
 * - `close`: every socket is dropped and new ones are cut at once;
 * - `hang`: nothing is answered (no server hello, no iq result, no ack);
 * - `garbage`: frames that are neither a Noise handshake message nor an encrypted binary node.
 */
export type Outage = PlatformFault;

/** WhatsApp's answer while it refuses: service unavailable (not 401, which would log the device out). */
export const REFUSAL = { code: 503, text: "service-unavailable" } as const;

/** A frame with a correct length prefix and random content: not valid noise, not a binary node. */
export function garbageFrame(): Buffer {
  return frame(randomBytes(64));
}
