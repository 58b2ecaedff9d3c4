import {
  codeForStatus,
  type HttpAnswer,
  HttpClient,
  type OutgoingRequest,
  PlatformHttpError,
  parseRetryAfter,
  type Redactor,
} from "@chorus/channel-kit";
import { ChorusError, RateLimitedError } from "@chorus/core";
import type { NextcloudConfig } from "./config.js";
import { newRandom, sign } from "./signing.js";
import type { OcsEnvelope } from "./wire.js";

/** Where every bot endpoint lives, below the server's base URL. */
export const BOT_API_PATH = "/ocs/v2.php/apps/spreed/api/v1/bot";

/** What `createTalkClient` needs. */
export interface TalkClientOptions {
  config: NextcloudConfig;
  /** The instance's lifetime: stopping the channel aborts requests and retry waits. */
  signal: AbortSignal;
  redactor: Redactor;
  /** Told after each attempt whether Talk answered at all (for a degraded status). */
  onReachability?(reachable: boolean, error?: ChorusError): void;
}

/**
 * The kit's HTTP client set up for Talk's bot API: every attempt signed with a fresh random,
 * the OCS envelope unwrapped, Talk's refusals explained. Retries, timeouts, 429 and the mapping
 * of statuses to error codes are the kit's.
 */
export function createTalkClient(options: TalkClientOptions): HttpClient {
  const { config } = options;
  return new HttpClient({
    label: "Nextcloud Talk",
    baseUrl: config.baseUrl,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    maxRetryAfterMs: config.maxRetryAfterMs,
    signal: options.signal,
    redactor: options.redactor,
    headers: { "ocs-apirequest": "true" },
    prepare: (request) => signAttempt(request, config.secret),
    refusal: talkRefusal,
    read: readOcs,
    ...(options.onReachability ? { onReachability: options.onReachability } : {}),
  });
}

/**
 * Signs one attempt. The random is new on every attempt: Talk (like this plugin's own webhook)
 * treats a random it has seen as a replay.
 */
function signAttempt(request: OutgoingRequest, secret: string): void {
  const random = newRandom();
  request.headers.set("x-nextcloud-talk-bot-random", random);
  request.headers.set("x-nextcloud-talk-bot-signature", sign(secret, random, signedPart(request.call.json)));
}

/**
 * What Talk checks a bot's signature over (`BotController::getBotFromHeaders`): only the
 * `message` of a send, or only the `reaction` of a react, never the JSON body.
 */
export function signedPart(body: unknown): string {
  const fields = (body ?? {}) as { message?: unknown; reaction?: unknown };
  if (typeof fields.message === "string") return fields.message;
  return typeof fields.reaction === "string" ? fields.reaction : "";
}

const HINTS: Readonly<Record<number, string>> = {
  401:
    "Check channels.nextcloud.secret (the secret of occ talk:bot:install) and that the bot is enabled in this " +
    "conversation (occ talk:bot:setup <bot-id> <token>, or the conversation's bot settings) with the response feature.",
  413: "Send a shorter message.",
};

const MEANING: Readonly<Record<number, string>> = {
  400: "bad request (empty text, an invalid replyTo or emoji, or the bot lacks the response feature)",
  401: "the bot's signature was not accepted for this conversation",
  404: "conversation or message not found",
  413: "message too long",
};

/** Talk's refusals: 429 (also after repeated 401s) and the OCS statuses, said in Talk's terms. */
function talkRefusal(answer: HttpAnswer): ChorusError {
  const { status, operation } = answer;
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(answer.headers.get("retry-after"));
    return new RateLimitedError(
      `Nextcloud Talk rate limit (${operation}); Talk also throttles after repeated 401s`,
      retryAfterMs,
      { hint: `Wait ${Math.ceil(retryAfterMs / 1000)} s before trying again.` },
    );
  }
  const meaning = MEANING[status] ? `: ${MEANING[status]}` : "";
  const said = envelopeOf(answer.json)?.ocs.meta.message;
  const hint = HINTS[status];
  return new PlatformHttpError(
    codeForStatus(status),
    `Nextcloud Talk refused to ${operation} (HTTP ${status}${meaning})${said ? `: ${said}` : ""}`,
    status,
    undefined,
    hint ? { hint } : {},
  );
}

/** The `data` of an OCS answer; a 2xx that is not one may still have done its work, so it is not retried. */
export function readOcs(answer: HttpAnswer): unknown {
  if (answer.text.trim() === "") return undefined;
  const envelope = envelopeOf(answer.json);
  if (!envelope) {
    throw new ChorusError("E_PLATFORM", `Nextcloud sent an unreadable answer (${answer.operation})`, {
      retryable: false,
      details: { status: answer.status, body: answer.text.slice(0, 200) },
    });
  }
  return envelope.ocs.data ?? undefined;
}

/** The OCS envelope of an answer, when it is one. */
export function envelopeOf(json: unknown): OcsEnvelope | undefined {
  const meta = (json as Partial<OcsEnvelope> | undefined)?.ocs?.meta;
  return meta !== null && typeof meta === "object" ? (json as OcsEnvelope) : undefined;
}
