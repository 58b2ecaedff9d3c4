import type { Redactor } from "@chorus/channel-kit";
import { toChorusError } from "@chorus/core";

/** One model failure as the owner's `/status` shows it: when, and the error's own words. */
export interface ModelFailure {
  at: Date;
  code: string;
  message: string;
}

/**
 * The last model failure of each agent, kept in memory for the owner's `/status`: chat members
 * see only a short, fixed notice (`turn/reply.ts`), the details stay with the operator.
 */
export class ModelFailures {
  readonly #last = new Map<string, ModelFailure>();

  /** `redactor` takes the gateway's secrets out of what is kept (`/status` shows it). */
  constructor(private readonly redactor?: Redactor) {}

  /** Records what made `agentId`'s model fail. */
  record(agentId: string, error: unknown, at = new Date()): void {
    const failure = this.redactor ? this.redactor.error(error) : toChorusError(error);
    this.#last.set(agentId, { at, code: failure.code, message: failure.message });
  }

  /** The agent answered again: its last failure is over. */
  clear(agentId: string): void {
    this.#last.delete(agentId);
  }

  /** The last failure of the agent's model, while it lasts. */
  last(agentId: string): ModelFailure | undefined {
    return this.#last.get(agentId);
  }
}

/** An error message without the operator's model address (for lines an owner reads in `/status`). */
export function withoutModelAddress(message: string): string {
  return message.replace(/ \(model "[^"]*" at [^)]*\)/g, "");
}
