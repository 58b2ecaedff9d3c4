import { STATUS_CODES } from "node:http";
import type { Update } from "grammy/types";
import type { FakeTelegramState } from "./fake-state.js";

/** `setWebhook`'s arguments as the fake stored them. */
export interface FakeWebhook {
  url: string;
  secret_token?: string;
}

/**
 * How the fake retries a webhook delivery that was not answered 2xx. Telegram documents that it
 * retries ("In case of an unsuccessful request (a request with response HTTP status code
 * different from 2XY), we will repeat the request and give up after a reasonable amount of
 * attempts", Bot API, `setWebhook`) but not its schedule: both numbers are the fake's.
 */
export interface WebhookRetryPolicy {
  /** Wait before delivering an update again (default 200 ms; keep it short in tests). */
  delayMs: number;
  /** Deliveries of one update before the fake gives up and drops it, as Telegram does (default 10). */
  attempts: number;
}

/** Telegram's default retry behaviour, as the fake plays it. */
export const WEBHOOK_RETRY: WebhookRetryPolicy = { delayMs: 200, attempts: 10 };

/** One webhook delivery the fake made on its own (pushing a pending update). */
export interface WebhookAttempt {
  updateId: number;
  url: string;
  /** The answer's status; 0 when there was none (nothing listening, a non-loopback host). */
  status: number;
  /** 1 for the first delivery of the update, 2 for its first retry, … */
  attempt: number;
}

/** What `getWebhookInfo` reports about the last failed delivery. */
export interface WebhookError {
  /** Unix time, in seconds. */
  date: number;
  message: string;
}

/**
 * Pushes pending updates to the webhook as Telegram does: each update once at a time, confirmed
 * only by a 2xx answer, retried after `delayMs` otherwise, dropped after `attempts` deliveries.
 * The updates of one chat go one after another: the next only once the one before was confirmed
 * or given up (telegram-bot-api `WebhookActor` keeps one queue per chat and sends only its first
 * update; `Client.cpp` puts a chat's messages in a queue of their own, its reactions in another).
 * Deliveries never leave this machine: a webhook URL on another host (the public URL a test
 * configures) fails like an unreachable server unless `forwardTo` names where it is served.
 */
export class FakeWebhookSender {
  /** Where deliveries for the webhook go instead of its URL: the reverse proxy in front of the gateway. */
  forwardTo: string | undefined;
  /** Every delivery the fake pushed, in order. */
  readonly attempts: WebhookAttempt[] = [];
  /** Updates the fake gave up on after `attempts` deliveries (Telegram drops them). */
  readonly abandoned: Update[] = [];
  lastError: WebhookError | undefined;
  readonly #busy = new Set<number>();
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly state: FakeTelegramState,
    private readonly policy: WebhookRetryPolicy,
    private readonly webhook: () => FakeWebhook | undefined,
    private readonly wanted: (update: Update) => boolean,
  ) {}

  /** Delivers the first pending update of every chat's queue that is not being delivered already. */
  push(): void {
    if (!this.webhook()) return;
    const heads = new Set<string>();
    for (const update of this.state.pending) {
      if (!this.wanted(update)) continue;
      const queue = queueOf(update);
      if (heads.has(queue)) continue;
      heads.add(queue);
      if (!this.#busy.has(update.update_id)) void this.#deliver(update, 1);
    }
  }

  /** Delivers `update` once more whatever became of it (a confirmation Telegram lost); answers are not looked at. */
  again(update: Update): void {
    const target = this.webhook();
    const url = target && this.#target(target.url);
    if (url && isLoopback(url)) void this.post(url, update, target.secret_token).catch(() => undefined);
  }

  /** One webhook POST as Telegram makes it; `secretToken` null sends no secret header. */
  post(url: string, update: Update, secretToken: string | null | undefined): Promise<Response> {
    return fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(secretToken != null ? { "x-telegram-bot-api-secret-token": secretToken } : {}),
      },
      body: JSON.stringify(update),
    });
  }

  /** Stops every retry (server shutdown). */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  async #deliver(update: Update, attempt: number): Promise<void> {
    const target = this.webhook();
    const id = update.update_id;
    // The webhook was deleted meanwhile (the update waits for getUpdates), or the update is gone.
    if (!target || !this.state.isPending(id)) {
      this.#busy.delete(id);
      return;
    }
    this.#busy.add(id);
    const url = this.#target(target.url);
    const status = await this.#answer(url, update, target.secret_token);
    this.attempts.push({ updateId: id, url, status, attempt });
    if (status >= 200 && status < 300) {
      this.state.settle(id);
      this.#busy.delete(id);
      this.push();
      return;
    }
    this.lastError = {
      date: Math.floor(Date.now() / 1000),
      message:
        status === 0
          ? "Connection refused"
          : `Wrong response from the webhook: ${status} ${STATUS_CODES[status] ?? ""}`,
    };
    if (attempt >= this.policy.attempts) {
      this.state.settle(id);
      this.abandoned.push(update);
      this.#busy.delete(id);
      this.push();
      return;
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#deliver(update, attempt + 1);
    }, this.policy.delayMs);
    this.#timers.add(timer);
  }

  /** The answer's status, 0 when none came. */
  async #answer(url: string, update: Update, secretToken: string | undefined): Promise<number> {
    if (!isLoopback(url)) return 0;
    try {
      const response = await this.post(url, update, secretToken);
      await response.arrayBuffer();
      return response.status;
    } catch {
      return 0;
    }
  }

  #target(url: string): string {
    return this.forwardTo ?? url;
  }
}

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "[::1]";
}

/** The webhook queue of an update: a chat's messages, a chat's reactions, or one of its own. */
function queueOf(update: Update): string {
  const body = update as { message?: { chat?: { id?: number } }; message_reaction?: { chat?: { id?: number } } };
  if (body.message?.chat?.id !== undefined) return `message:${body.message.chat.id}`;
  if (body.message_reaction?.chat?.id !== undefined) return `reaction:${body.message_reaction.chat.id}`;
  return `update:${update.update_id}`;
}
