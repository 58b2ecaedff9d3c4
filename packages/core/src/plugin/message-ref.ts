import { ChorusError } from "../errors.js";

/** A JSON value: what a `MessageRef` may carry for its plugin. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Everything a plugin needs to address one message again, minted for every inbound and sent
 * message (DESIGN §2.3). Plain JSON so the gateway can persist it.
 */
export interface MessageRef {
  /** Channel id (`telegram`). */
  readonly channel: string;
  /** Account of that channel (`default` when there are no accounts). */
  readonly accountId: string;
  /** Conversation the message lives in. */
  readonly conversationId: string;
  /** The id the agent sees and passes back as `messageId`. */
  readonly messageId: string;
  /** Thread or topic inside the conversation, where the platform has them. */
  readonly threadId?: string;
  /** Whether the bot itself sent the message. */
  readonly fromBot?: boolean;
  /** Platform specifics (WhatsApp participant, Signal author + timestamp, …). */
  readonly data?: { readonly [key: string]: JsonValue };
}

/** Reads a `MessageRef` back from JSON, naming the field that is wrong. */
export function parseMessageRef(value: unknown): MessageRef {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ChorusError("E_INVALID_INPUT", "message reference must be an object");
  }
  const record = value as Record<string, unknown>;
  for (const key of ["channel", "accountId", "conversationId", "messageId"] as const) {
    if (typeof record[key] !== "string" || record[key] === "") {
      throw new ChorusError("E_INVALID_INPUT", `message reference field ${key} must be a non-empty string`);
    }
  }
  if (record.threadId !== undefined && typeof record.threadId !== "string") {
    throw new ChorusError("E_INVALID_INPUT", "message reference field threadId must be a string");
  }
  if (record.fromBot !== undefined && typeof record.fromBot !== "boolean") {
    throw new ChorusError("E_INVALID_INPUT", "message reference field fromBot must be a boolean");
  }
  if (
    record.data !== undefined &&
    (typeof record.data !== "object" || record.data === null || Array.isArray(record.data))
  ) {
    throw new ChorusError("E_INVALID_INPUT", "message reference field data must be an object");
  }
  return record as unknown as MessageRef;
}
