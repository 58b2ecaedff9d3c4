import { type Redactor, retrying } from "@chorus/channel-kit";
import { type ChorusError, toChorusError } from "@chorus/core";
import type { WebClient } from "@slack/web-api";
import type { SlackConfig } from "./config.js";
import { type SlackTokenKind, slackError } from "./errors.js";

/** How one Web API call may be repeated. */
export interface CallOptions {
  /** Repeating it cannot do its work twice; true by default, false for `chat.postMessage`. */
  idempotent?: boolean;
  token?: SlackTokenKind;
}

/** What the account hands its API caller. */
export interface SlackApiOptions {
  signal: AbortSignal;
  redactor: Redactor;
  /** Told after each call whether Slack worked (undefined) or why not (for a degraded status). */
  onProblem?(problem: string | undefined): void;
}

/**
 * Every Web API call of an account goes through `call`: one attempt is the `@slack/web-api`
 * call (its own retries off), its failure becomes a ChorusError (`errors.ts`), and the kit's
 * `retrying` repeats what may be repeated. What it throws is redacted.
 */
export class SlackApi {
  constructor(
    readonly web: WebClient,
    private readonly config: Pick<SlackConfig, "retries" | "maxRetryAfterMs" | "timeoutMs">,
    private readonly options: SlackApiOptions,
  ) {}

  /** Calls `method` through `run`, retrying as the kit's policy says. */
  call<T>(method: string, run: (web: WebClient) => Promise<T>, options: CallOptions = {}): Promise<T> {
    const { signal, redactor, onProblem } = this.options;
    const idempotent = options.idempotent ?? true;
    const facts = { method, token: options.token ?? "bot", idempotent, timeoutMs: this.config.timeoutMs };
    const attempt = async () => {
      try {
        const result = await run(this.web);
        onProblem?.(undefined);
        return result;
      } catch (error) {
        const failure = slackError(error, { ...facts, stopping: signal.aborted });
        if (failure.code === "E_PLATFORM") onProblem?.(redactor.text(failure.message));
        throw failure;
      }
    };
    return retrying(attempt, {
      retries: this.config.retries,
      maxRetryAfterMs: this.config.maxRetryAfterMs,
      idempotent,
      signal,
      fail: (error): ChorusError => redactor.error(toChorusError(error)),
    });
  }
}
