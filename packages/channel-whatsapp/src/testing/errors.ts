import { ChorusError } from "@chorus/core";

/** A test called the fake with something it does not know (an unknown person, group or message). */
export function fakeInputError(message: string, details?: Record<string, unknown>): ChorusError {
  return new ChorusError("E_INVALID_INPUT", `fake WhatsApp: ${message}`, details ? { details } : {});
}

/** The client broke the wire protocol (bad handshake, undecryptable frame, unknown device). */
export function fakeProtocolError(message: string, cause?: unknown): ChorusError {
  return new ChorusError("E_PLATFORM", `fake WhatsApp: ${message}`, cause === undefined ? {} : { cause });
}
