import type { FakeResponse } from "@chorus/testkit";
import type { Update } from "grammy/types";
import type { FakeTelegramState } from "./fake-state.js";
import { type FakeWebhook, FakeWebhookSender, WEBHOOK_RETRY, type WebhookRetryPolicy } from "./fake-webhook.js";

/** Without `allowed_updates` Telegram sends everything except these. */
const OPT_IN_UPDATES = ["chat_member", "message_reaction", "message_reaction_count"];
const CONFLICT_POLL =
  "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running";
const CONFLICT_WEBHOOK =
  "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";

/** A successful Bot API answer. */
export const ok = (result: unknown): FakeResponse => ({ status: 200, json: { ok: true, result } });
/** Telegram's error format, with the matching HTTP status. */
export const fail = (code: number, description: string, parameters?: Record<string, unknown>): FakeResponse => ({
  status: code,
  json: { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) },
});

interface Waiter {
  resolve(response: FakeResponse): void;
  timer: NodeJS.Timeout;
  offset: number;
  connection?: { alive(): boolean };
}

export type { FakeWebhook } from "./fake-webhook.js";

/** How updates leave the fake: long-polled `getUpdates` with offsets, or pushed to a webhook. */
export class FakeUpdateFeed {
  webhook: FakeWebhook | undefined;
  /** The last `allowed_updates` the bot asked for (Telegram remembers it between calls). */
  allowedUpdates: string[] | undefined;
  #waiters: Waiter[] = [];
  /** Updates to hand out again whatever the offset says (a confirmation that got lost). */
  #again: Update[] = [];
  /** `getUpdates` calls refused with 409 because another long poll was open on a live connection. */
  conflicts = 0;
  /** Pushes updates to the webhook, with Telegram's retries. */
  readonly sender: FakeWebhookSender;

  constructor(
    private readonly state: FakeTelegramState,
    retry: WebhookRetryPolicy = WEBHOOK_RETRY,
  ) {
    this.sender = new FakeWebhookSender(
      state,
      retry,
      () => this.webhook,
      (update) => this.#wanted(update),
    );
  }

  /** `getUpdates`: confirms below `offset`, answers at once when there is news, else waits up to `timeout` s. */
  poll(params: Record<string, unknown>, connection?: { alive(): boolean }): FakeResponse | Promise<FakeResponse> {
    if (this.webhook) return fail(409, CONFLICT_WEBHOOK);
    // A long poll of a client that went away (killed, aborted) no longer counts.
    for (const old of this.#waiters) if (old.connection && !old.connection.alive()) this.#settle(old, ok([]));
    // Two pollers at once: the second is refused, as Telegram does, and counted.
    if (connection && this.#waiters.some((w) => w.connection !== undefined)) {
      this.conflicts++;
      return fail(409, CONFLICT_POLL);
    }
    const offset = typeof params.offset === "number" ? params.offset : 0;
    if (offset > 0) this.state.confirm(offset);
    if (Array.isArray(params.allowed_updates)) this.allowedUpdates = params.allowed_updates.map(String);
    // Only one long poll at a time: a newer one from no known connection ends the older one.
    for (const old of this.#waiters) this.#settle(old, fail(409, CONFLICT_POLL));
    const updates = this.#take(offset);
    const timeout = typeof params.timeout === "number" ? params.timeout : 0;
    if (updates.length > 0 || timeout === 0) return ok(params.limit === 1 ? updates.slice(0, 1) : updates);
    return new Promise<FakeResponse>((resolve) => {
      const waiter: Waiter = {
        resolve,
        offset,
        timer: setTimeout(() => this.#settle(waiter, ok([])), timeout * 1000),
        ...(connection ? { connection } : {}),
      };
      this.#waiters.push(waiter);
    });
  }

  /** A new update is queued: drop it when the bot never asked for its kind, else wake a poll or push it. */
  queued(update: Update): Update {
    if (!this.#wanted(update)) this.state.settle(update.update_id);
    this.#wake();
    this.push();
    return update;
  }

  /**
   * Delivers `update` once more, as Telegram does when the bot's confirmation was lost: to the
   * webhook, or in the next `getUpdates` answer whatever its offset.
   */
  redeliver(update: Update): void {
    if (this.webhook) {
      this.sender.again(update);
      return;
    }
    this.#again.push(update);
    this.#wake();
  }

  /** Posts every pending update to the webhook; a 2xx confirms it, anything else is retried. */
  push(): void {
    this.sender.push();
  }

  /** One webhook delivery as Telegram makes it; `secretToken` null sends no secret header. */
  deliver(url: string, update: Update, secretToken: string | null | undefined): Promise<Response> {
    return this.sender.post(url, update, secretToken);
  }

  /** Ends every open long poll and webhook retry (server shutdown). */
  close(): void {
    for (const waiter of this.#waiters) this.#settle(waiter, ok([]));
    this.sender.close();
  }

  #settle(waiter: Waiter, response: FakeResponse): void {
    clearTimeout(waiter.timer);
    this.#waiters = this.#waiters.filter((w) => w !== waiter);
    waiter.resolve(response);
  }

  #wanted(update: Update): boolean {
    const kind = Object.keys(update).find((k) => k !== "update_id") ?? "";
    const allowed = this.allowedUpdates;
    return allowed && allowed.length > 0 ? allowed.includes(kind) : !OPT_IN_UPDATES.includes(kind);
  }

  /** Answers waiting long polls that have news now. */
  #wake(): void {
    for (const waiter of this.#waiters) {
      const updates = this.#take(waiter.offset);
      if (updates.length > 0) this.#settle(waiter, ok(updates));
    }
  }

  /** What a poll with `offset` gets: updates to repeat, then the unconfirmed ones from `offset` on. */
  #take(offset: number): Update[] {
    const again = this.#again.splice(0);
    const updates = [...again, ...this.#deliverable(offset).filter((u) => !again.includes(u))];
    if (updates.length > 0) this.state.hooks.delivered?.(updates);
    return updates;
  }

  #deliverable(offset: number): Update[] {
    return this.state.pending.filter((u) => u.update_id >= offset && this.#wanted(u)).slice(0, 100);
  }
}
