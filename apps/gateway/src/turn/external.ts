import type { MessageToolInput, MessageToolSuccess } from "@chorus/core";
import type { MessageCallOptions, MessageToolCalls, TurnScope } from "../channels/message-tool.js";

/** How a turn of an outside agent ended: its first send (the text and the message id), or the timeout. */
export type ExternalOutcome = { kind: "sent"; text: string; messageId: string } | { kind: "timeout" };

interface Waiting {
  scope: TurnScope;
  resolve(outcome: ExternalOutcome): void;
}

/**
 * Turns of agents with `model: { provider: "external" }`: the turn waits until the outside agent
 * sends to the conversation (through `POST /v1/tools/message` or an MCP `message` tool), or until
 * the timeout. A call from outside to a conversation with a waiting turn runs in that turn's
 * scope: its thread, and `messageId` defaulting to the message being answered. Every other call
 * goes to the executor unchanged.
 */
export class ExternalTurns implements MessageToolCalls {
  readonly #waiting = new Map<string, Waiting[]>();

  constructor(private readonly tools: MessageToolCalls) {}

  /** Waits for the outside agent's answer in `scope`'s conversation. */
  wait(scope: TurnScope, timeoutMs: number, signal: AbortSignal): Promise<ExternalOutcome> {
    const key = keyOf(scope.channel, scope.accountId, scope.conversation.id);
    return new Promise((resolve) => {
      const waiting: Waiting = { scope, resolve: (outcome) => done(outcome) };
      const list = this.#waiting.get(key) ?? [];
      list.push(waiting);
      this.#waiting.set(key, list);
      const timer = setTimeout(() => done({ kind: "timeout" }), timeoutMs);
      const aborted = () => done({ kind: "timeout" });
      signal.addEventListener("abort", aborted, { once: true });
      const done = (outcome: ExternalOutcome) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", aborted);
        const left = (this.#waiting.get(key) ?? []).filter((w) => w !== waiting);
        if (left.length > 0) this.#waiting.set(key, left);
        else this.#waiting.delete(key);
        resolve(outcome);
      };
    });
  }

  async execute(input: MessageToolInput, scope?: TurnScope, options?: MessageCallOptions): Promise<MessageToolSuccess> {
    const turn = scope === undefined ? this.#turnFor(input) : undefined;
    const result = await this.tools.execute(input, scope ?? turn?.scope, options);
    if (turn && result.action === "send" && input.text !== undefined) {
      turn.resolve({ kind: "sent", text: input.text, messageId: result.messageId });
    }
    return result;
  }

  /** The oldest turn waiting in the conversation a call from outside names. */
  #turnFor(input: MessageToolInput): Waiting | undefined {
    if (!input.channel || !input.target) return undefined;
    for (const [key, list] of this.#waiting) {
      const first = list[0];
      if (!first || key.split("\u0000")[2] !== input.target) continue;
      const { channel, accountId } = first.scope;
      if (channel === input.channel && (input.account === undefined || input.account === accountId)) return first;
    }
    return undefined;
  }
}

function keyOf(channel: string, account: string, conversation: string): string {
  return `${channel}\u0000${account}\u0000${conversation}`;
}
