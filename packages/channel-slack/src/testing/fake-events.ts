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
  /** Slack's retry headers: `X-Slack-Retry-Num` and `X-Slack-Retry-Reason`. */
  retry?: { num: number; reason: string };
}

/** One HTTP delivery as it went out: body, the answer, and how long the app took. */
export interface PostedDelivery {
  body: string;
  status: number;
  /** What the app answered (the challenge for url_verification). */
  answer: string;
  elapsedMs: number;
}

/** Slack gives up on a request after 3 s (and retries it); the fake waits longer so slowness is measured, not hidden. */
const DELIVERY_TIMEOUT_MS = 10_000;

/** Who the events are for: the workspace and app the envelopes name. */
export interface EnvelopeFacts {
  teamId: string;
  appId: string;
  botUserId: string;
}

/**
 * Events API envelopes, and their delivery over HTTP as Slack makes it: JSON signed with
 * `X-Slack-Signature: v0=` HMAC-SHA256 of `v0:<timestamp>:<body>`, one at a time in order, to
 * the app's Request URL, with `X-Slack-Retry-Num` on a retry.
 */
export class FakeSlackHttpEvents {
  /** The Request URL (Event Subscriptions); nothing is delivered before it is set. */
  requestUrl: string | undefined;
  readonly posted: PostedDelivery[] = [];
  /** One delivery at a time, in order, as Slack sends to one app. */
  readonly #queue = new KeyedQueue();

  constructor(
    private readonly signingSecret: string,
    private readonly facts: EnvelopeFacts,
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

  /** Posts `body` signed (by Slack, or by `options.secret`), after every delivery before it; resolves with the status. */
  post(body: string, options: PostOptions = {}): Promise<number> {
    return this.#queue.run("app", () => this.#send(body, options));
  }

  /** Resolves once every delivery so far was answered. */
  settled(): Promise<void> {
    return this.#queue.run("app", async () => {});
  }

  /** What Slack does when the Request URL is saved: a signed `url_verification`; true when the app echoed the challenge. */
  async verify(url: string): Promise<boolean> {
    const challenge = randomUUID().replace(/-/g, "");
    const body = JSON.stringify({ token: "fake-verification-token", challenge, type: "url_verification" });
    await this.post(body, { to: url });
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

  async #send(body: string, options: PostOptions): Promise<number> {
    const to = options.to ?? this.requestUrl;
    if (to === undefined) return 0;
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
    const signal = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
    // An app that is down answers nothing: Slack notes it (status 0) and goes on.
    const { status, answer } = await fetch(to, { method: "POST", headers, body, signal }).then(
      async (response) => ({ status: response.status, answer: await response.text() }),
      () => ({ status: 0, answer: "" }),
    );
    this.posted.push({ body, status, answer, elapsedMs: Date.now() - started });
    return status;
  }
}
