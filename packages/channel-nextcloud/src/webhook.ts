import { BoundedSet } from "@chorus/channel-kit";
import type { HttpHandler, InboundEvent, Logger } from "@chorus/core";
import type { BotIdentity } from "./identity.js";
import { type NormalizedHook, normalizeHook } from "./inbound.js";
import type { ReactionEventIds } from "./reaction-events.js";
import { MIN_RANDOM_LENGTH, normalizeServerUrl, signatureMatches } from "./signing.js";

/** Randoms remembered for the replay check; bounded. */
const REMEMBERED_RANDOMS = 5_000;

/** What the webhook handler of one account needs. */
export interface WebhookOptions {
  secret: string;
  /** The configured server; `X-Nextcloud-Talk-Backend` must name it. */
  baseUrl: string;
  directConversations: readonly string[];
  identity: BotIdentity;
  reactionIds: ReactionEventIds;
  /** False before `start()` and after `stop()`: the hook answers 503. */
  running(): boolean;
  /** Resolves once the gateway committed the event: only then is the delivery answered 200. */
  emit(event: InboundEvent): Promise<void>;
  logger: Logger;
}

/**
 * The webhook handler: verify (signature, backend, replay), then parse, normalize and emit.
 * Nothing from a request that fails verification is parsed, logged as content or emitted; a
 * verified body the plugin cannot read is answered 400 with a warning naming what was wrong.
 */
export function createWebhookHandler(options: WebhookOptions): HttpHandler {
  // Security, not deduplication: Talk's hooks carry no timestamp, so a captured delivery (with a
  // valid signature) could be posted again at any time, and only its random gives it away. Talk
  // itself signs every delivery with a fresh random; its redeliveries are recognised by their
  // stable eventId, which the gateway deduplicates.
  const randoms = new BoundedSet<string>(REMEMBERED_RANDOMS);
  const backend = normalizeServerUrl(options.baseUrl);
  const { logger } = options;
  return async (request) => {
    // The signature covers the exact bytes Talk sent: verify those, never a re-serialized copy.
    const raw = new Uint8Array(await request.arrayBuffer());
    const random = request.headers.get("x-nextcloud-talk-random") ?? "";
    const reason =
      verifyWebhook(request.headers, raw, options.secret, backend) ??
      (randoms.has(random) ? "replayed X-Nextcloud-Talk-Random" : undefined);
    if (reason) {
      logger.warn({ reason }, `nextcloud: refused a webhook (${reason})`);
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    if (!options.running()) return Response.json({ error: "not_ready" }, { status: 503 });
    randoms.add(random);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(raw).toString("utf8"));
    } catch (error) {
      return unreadable(logger, "a webhook", [`(body): not JSON (${(error as Error).message})`]);
    }
    try {
      return await handle(normalizeHook(body, contextOf(options)), body, options);
    } catch (error) {
      logger.error({ err: error }, "nextcloud: could not handle a webhook");
      return Response.json({ error: "internal" }, { status: 500 });
    }
  };
}

/** Why a delivery is not from the configured Talk server (missing, forged, foreign), or undefined. */
export function verifyWebhook(headers: Headers, raw: Uint8Array, secret: string, backend: string): string | undefined {
  const random = headers.get("x-nextcloud-talk-random");
  if (!random || random.length < MIN_RANDOM_LENGTH) return "missing or short X-Nextcloud-Talk-Random";
  const signature = headers.get("x-nextcloud-talk-signature");
  if (!signature) return "missing X-Nextcloud-Talk-Signature";
  if (!signatureMatches(secret, random, raw, signature)) return "signature does not match";
  const from = headers.get("x-nextcloud-talk-backend");
  if (!from || normalizeServerUrl(from) !== backend) return "X-Nextcloud-Talk-Backend is not the configured baseUrl";
  return undefined;
}

function contextOf(options: WebhookOptions) {
  return {
    scope: options.identity.scope(),
    botName: options.identity.botName,
    directConversations: options.directConversations,
    now: Date.now(),
  };
}

async function handle(hook: NormalizedHook, body: unknown, options: WebhookOptions): Promise<Response> {
  const { logger } = options;
  switch (hook.kind) {
    case "unreadable":
      return unreadable(logger, describeHook(body), hook.problems);
    case "ignored":
      logger.debug({ reason: hook.reason }, `nextcloud: ignored ${hook.reason}`);
      break;
    case "message":
      if (hook.problems.length > 0) {
        logger.warn(
          { eventId: hook.event.eventId, problems: hook.problems },
          `nextcloud: read a message only in part (${hook.problems.join("; ")}); its text is passed on as sent`,
        );
      }
      await options.emit(hook.event);
      break;
    case "reaction":
      await options.emit({ ...hook.event, eventId: await options.reactionIds.idFor(hook.occurrence) });
      break;
    case "membership":
      if (await options.identity.learn(hook.botId, hook.botName)) {
        logger.info({ botId: hook.botId }, "nextcloud: learned the bot's actor id from Talk");
      }
      logger.info(
        { conversation: hook.conversation.id, title: hook.conversation.name },
        `nextcloud: bot ${hook.type === "Join" ? "added to" : "removed from"} a conversation`,
      );
      break;
  }
  // Read hooks are acknowledged, also those that are no event: Talk counts other answers as bot errors.
  return Response.json({ ok: true });
}

/** A verified body the plugin cannot read: a warning naming each field and problem, and a 400 Talk counts as a bot error. */
function unreadable(logger: Logger, what: string, problems: string[]): Response {
  logger.warn(
    { problems },
    `nextcloud: could not read ${what} from Talk (${problems.join("; ")}); nothing was emitted`,
  );
  return Response.json({ error: "unreadable", problems }, { status: 400 });
}

/** `a "Create" webhook`, or `a webhook` when the body names no type. */
function describeHook(body: unknown): string {
  const type = (body as { type?: unknown } | null)?.type;
  return typeof type === "string" ? `a ${JSON.stringify(type.slice(0, 40))} webhook` : "a webhook";
}
