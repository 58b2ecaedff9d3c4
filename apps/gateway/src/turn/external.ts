import type { MessageToolInput, MessageToolSuccess } from "@chorus/core";
import type { MessageCallOptions, MessageToolCalls, TurnScope } from "../channels/index.js";

/** How a turn of an outside agent ended: its first send (the text and the message id), or the timeout. */
export type ExternalOutcome = { kind: "sent"; text: string; messageId: string } | { kind: "timeout" };

interface Waiting {
  scope: TurnScope;
  /** When the message it answers was received. */
  since?: number;
  resolve(outcome: ExternalOutcome): void;
}

/** A send from outside to a conversation where no turn waited (yet). */
interface EarlySend {
  channel: string;
  account?: string;
  target: string;
  at: number;
  text: string;
  messageId: string;
}

/**
 * How long a send that came before its turn waited still answers that turn: the event stream
 * shows a message once it is committed, and the outside agent can answer before the gateway has
 * started the message's turn (a group message waits for the session's earlier steps).
 */
const EARLY_SEND_MS = 60_000;
const EARLY_SENDS_KEPT = 100;

/**
 * Turns of agents with `model: { provider: "external" }`: the turn waits until the outside agent
 * sends to the conversation (through `POST /v1/tools/message` or an MCP `message` tool), or until
 * the timeout. A call from outside to a conversation with a waiting turn runs in that turn's
 * scope: its thread, and `messageId` defaulting to the message being answered. Every other call
 * goes to the executor unchanged; a send among them answers the conversation's next turn that
 * waits for a message received before it.
 */
export class ExternalTurns implements MessageToolCalls {
  readonly #waiting = new Map<string, Waiting[]>();
  #early: EarlySend[] = [];

  constructor(private readonly tools: MessageToolCalls) {}

  /**
   * Waits for the outside agent's answer in `scope`'s conversation to a message received at `since`;
   * ends at `timeoutMs` (a timer, held until then) or when `signal` aborts, whichever comes first.
   */
  wait(scope: TurnScope, timeoutMs: number, signal: AbortSignal, since?: number): Promise<ExternalOutcome> {
    const key = keyOf(scope.channel, scope.accountId, scope.conversation.id);
    const early = since === undefined ? undefined : this.#takeEarly(scope, since);
    if (early) return Promise.resolve({ kind: "sent", text: early.text, messageId: early.messageId });
    // An abort that came first would never fire its event: the turn would wait out its whole timeout.
    if (signal.aborted) return Promise.resolve({ kind: "timeout" });
    return new Promise((resolve) => {
      const waiting: Waiting = {
        scope,
        ...(since !== undefined ? { since } : {}),
        resolve: (outcome) => done(outcome),
      };
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
    const started = Date.now();
    const turn = scope === undefined ? this.#turnFor(input) : undefined;
    const result = await this.tools.execute(input, scope ?? turn?.scope, options);
    const sent = input.text ?? (input.media !== undefined || input.location !== undefined ? "" : undefined);
    if (result.action === "send" && sent !== undefined && scope === undefined) {
      // A turn that began waiting while this send was on its way is answered by it too.
      const later = turn ? undefined : this.#turnFor(input);
      const answered = turn ?? (later && (later.since === undefined || later.since <= started) ? later : undefined);
      if (answered) answered.resolve({ kind: "sent", text: sent, messageId: result.messageId });
      else if (input.channel && input.target) {
        this.#keepEarly({
          channel: input.channel,
          ...(input.account !== undefined ? { account: input.account } : {}),
          target: input.target,
          at: started,
          text: sent,
          messageId: result.messageId,
        });
      }
    }
    return result;
  }

  #keepEarly(send: EarlySend): void {
    const now = Date.now();
    this.#early = this.#early.filter((e) => now - e.at < EARLY_SEND_MS).slice(-(EARLY_SENDS_KEPT - 1));
    this.#early.push(send);
  }

  /** The oldest send to `scope`'s conversation made since `since`, taken. */
  #takeEarly(scope: TurnScope, since: number): EarlySend | undefined {
    const now = Date.now();
    const index = this.#early.findIndex(
      (e) =>
        now - e.at < EARLY_SEND_MS &&
        e.at >= since &&
        e.channel === scope.channel &&
        e.target === scope.conversation.id &&
        (e.account === undefined || e.account === scope.accountId),
    );
    if (index < 0) return undefined;
    const [early] = this.#early.splice(index, 1);
    return early;
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
