import { randomUUID } from "node:crypto";
import { hmacSha256Hex, KeyedQueue } from "@chorus/channel-kit";

/** How one HTTP delivery is posted; a forger's or a replay's changes for the signature tests. */
export interface PostOptions {
  /** Sign with this secret instead of the app's (a forger). */
  secret?: string;
  /** `X-Slack-Request-Timestamp` in unix seconds; now by default. */
  timestamp?: number;
  /** Post here instead of the Request URL. */
  to?: string;
  /** Slack's retry headers: `X-Slack-Retry-Num` and `X-Slack-Retry-Reason` (a retry made by hand). */
  retry?: { num: number; reason: string };
  /** Post once, without Slack's retries (the Request URL check when the app config is saved). */
  once?: boolean;
}

/** One HTTP delivery attempt as it went out: body, the answer, and how long the app took. */
export interface PostedDelivery {
  body: string;
  /** 0: no answer (the connection failed, or Slack gave up waiting). */
  status: number;
  /** What the app answered (the challenge for url_verification). */
  answer: string;
  elapsedMs: number;
  /** The retry headers it carried; absent on a first attempt. */
  retry?: { num: number; reason: SlackRetryReason | string };
}

/** `X-Slack-Retry-Reason`: why the attempt before failed. */
export type SlackRetryReason = "http_timeout" | "connection_failed" | "http_error";

/** When Slack delivers again what was not acknowledged, and how long it waits for the acknowledgement. */
export interface SlackRedelivery {
  /** The wait before each retry after a failed attempt; Slack gives up after the last. */
  retryDelaysMs: readonly number[];
  /** An answer (HTTP) or ack (Socket Mode) that has not come after this long is a failed attempt. */
  answerWithinMs: number;
}

/**
 * Slack's own rules (Events API, "Graceful retries"): an app must answer 2xx within 3 seconds;
 * otherwise (no connection, a timeout, any other status) Slack retries up to 3 times, nearly at
 * once, after 1 minute and after 5 minutes, with `X-Slack-Retry-Num` and `X-Slack-Retry-Reason`,
 * unless the answer carried `X-Slack-No-Retry: 1`. Socket Mode envelopes are retried alike.
 */
export const SLACK_REDELIVERY: SlackRedelivery = { retryDelaysMs: [0, 60_000, 300_000], answerWithinMs: 3_000 };

/** Who the events are for: the workspace and app the envelopes name. */
export interface EnvelopeFacts {
  teamId: string;
  appId: string;
  botUserId: string;
}

/**
 * Events API envelopes, and their delivery over HTTP as Slack makes it: JSON signed with
 * `X-Slack-Signature: v0=` HMAC-SHA256 of `v0:<timestamp>:<body>`, one at a time in order, to
 * the app's Request URL, and retried (each attempt signed at its own time) while not answered 2xx
 * within `answerWithinMs`. A post signed with another secret or an old timestamp is a forger's,
 * never Slack's, and is not retried.
 */
export class FakeSlackHttpEvents {
  /** The Request URL (Event Subscriptions); nothing is delivered before it is set. */
  requestUrl: string | undefined;
  /** Every attempt, retries included, oldest first. */
  readonly posted: PostedDelivery[] = [];
  /** One delivery at a time, in order, as Slack sends to one app. */
  readonly #queue = new KeyedQueue();
  readonly #retries = new Set<NodeJS.Timeout>();
  #closed = false;

  constructor(
    private readonly signingSecret: string,
    private readonly facts: EnvelopeFacts,
    private readonly redelivery: SlackRedelivery = SLACK_REDELIVERY,
  ) {}

  /** The `event_callback` body of one event, as Slack wraps it (a fresh `event_id`). */
  envelope(event: Record<string, unknown>): Record<string, unknown> {
    const { teamId, appId, botUserId } = this.facts;
    return {
      token: "fake-verification-token",
      team_id: teamId,
      context_team_id: teamId,
      context_enterprise_id: null,
      api_app_id: appId,
      event,
      type: "event_callback",
      event_id: `Ev${randomUUID().replace(/-/g, "").slice(0, 10).toUpperCase()}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [
        { enterprise_id: null, team_id: teamId, user_id: botUserId, is_bot: true, is_enterprise_install: false },
      ],
      is_ext_shared_channel: false,
      event_context: `4-${Buffer.from(randomUUID()).toString("base64url").slice(0, 40)}`,
    };
  }

  /**
   * Posts `body` signed (by Slack, or by `options.secret`), after every delivery before it;
   * resolves with the status of this first attempt. Slack's own deliveries are retried later.
   */
  post(body: string, options: PostOptions = {}): Promise<number> {
    const retried = !options.once && options.secret === undefined && options.timestamp === undefined && !options.retry;
    return this.#attempt(body, options, retried ? 0 : undefined);
  }

  /** Resolves once every attempt so far was answered (retries still to come are not waited for). */
  settled(): Promise<void> {
    return this.#queue.run("app", async () => {});
  }

  /** Slack stops delivering: retries still to come are dropped. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#retries) clearTimeout(timer);
    this.#retries.clear();
    await this.settled();
  }

  /** What Slack does when the Request URL is saved: a signed `url_verification`; true when the app echoed the challenge. */
  async verify(url: string): Promise<boolean> {
    const challenge = randomUUID().replace(/-/g, "");
    const body = JSON.stringify({ token: "fake-verification-token", challenge, type: "url_verification" });
    await this.post(body, { to: url, once: true });
    const answer = this.posted.at(-1)?.answer ?? "";
    const echoed = (() => {
      try {
        return (JSON.parse(answer) as { challenge?: unknown }).challenge;
      } catch {
        return answer;
      }
    })();
    if (echoed !== challenge) return false;
    this.requestUrl = url;
    return true;
  }

  /** One attempt; `retries` is how many retries came before it, undefined for a post Slack never retries. */
  #attempt(body: string, options: PostOptions, retries: number | undefined): Promise<number> {
    return this.#queue.run("app", async () => {
      const sent = await this.#send(body, options);
      const wait = retries === undefined ? undefined : this.redelivery.retryDelaysMs[retries];
      if (sent.failure && !sent.noRetry && wait !== undefined && retries !== undefined) {
        const retry = { num: retries + 1, reason: sent.failure };
        this.#later(wait, () => void this.#attempt(body, { ...options, retry }, retries + 1));
      }
      return sent.status;
    });
  }

  #later(waitMs: number, run: () => void): void {
    if (this.#closed) return;
    const timer = setTimeout(() => {
      this.#retries.delete(timer);
      if (!this.#closed) run();
    }, waitMs);
    timer.unref();
    this.#retries.add(timer);
  }

  async #send(
    body: string,
    options: PostOptions,
  ): Promise<{ status: number; failure?: SlackRetryReason; noRetry?: boolean }> {
    const to = options.to ?? this.requestUrl;
    if (to === undefined) return { status: 0 };
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const signature = `v0=${hmacSha256Hex(options.secret ?? this.signingSecret, `v0:${timestamp}:${body}`)}`;
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
      "x-slack-request-timestamp": timestamp,
      "x-slack-signature": signature,
      ...(options.retry
        ? { "x-slack-retry-num": String(options.retry.num), "x-slack-retry-reason": options.retry.reason }
        : {}),
    };
    const started = Date.now();
    // Slack gives up waiting after 3 s (http_timeout); an app that is down answers nothing (connection_failed).
    const signal = AbortSignal.timeout(this.redelivery.answerWithinMs);
    const answered = await fetch(to, { method: "POST", headers, body, signal }).then(
      async (response) => ({
        status: response.status,
        answer: await response.text(),
        noRetry: response.headers.get("x-slack-no-retry") === "1",
      }),
      (error: unknown) => ({ status: 0, answer: "", timedOut: signal.aborted || isTimeout(error) }),
    );
    this.posted.push({
      body,
      status: answered.status,
      answer: answered.answer,
      elapsedMs: Date.now() - started,
      ...(options.retry ? { retry: options.retry } : {}),
    });
    if ("timedOut" in answered) {
      return { status: 0, failure: answered.timedOut ? "http_timeout" : "connection_failed" };
    }
    const ok = answered.status >= 200 && answered.status < 300;
    return { status: answered.status, ...(ok ? {} : { failure: "http_error" as const }), noRetry: answered.noRetry };
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}
