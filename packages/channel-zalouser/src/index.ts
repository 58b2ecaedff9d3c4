/**
 * Zalo Personal: a personal Zalo account through zca-js, the unofficial client of Zalo's web
 * protocol. Read this file first (the plugin object and the wiring of one account), then
 * `config.ts` → `session.ts` → `login.ts` → `connection.ts` (with `zalo/`: the transport zca-js
 * fetches through, its AES and its errors) → `inbound.ts` → `outbound.ts` → `reactions.ts`, and
 * the fake Zalo every test runs against, in `testing/`.
 */
import { BotReactionRecord, BoundedMap, KeyedQueue, Redactor, secretsOf } from "@chorus/channel-kit";
import {
  CHORUS_API_VERSION,
  type ChannelCapabilities,
  type ChannelContext,
  type ChannelInstance,
  ChorusError,
  defineChannel,
  type MessageRef,
  type RefScope,
} from "@chorus/core";
import { type GroupMessage, type Reaction, ThreadType, type UserMessage } from "zca-js";
import { ZALOUSER_SECRET_KEYS, type ZalouserConfig, zalouserConfigSchema } from "./config.js";
import { ZaloConnection } from "./connection.js";
import { normalizeMessage, normalizeReaction } from "./inbound.js";
import { loginWithQr } from "./login.js";
import { createOutbound, MAX_TEXT_LENGTH, type ZaloCaller } from "./outbound.js";
import { probeZalouser } from "./probe.js";
import { createReactions } from "./reactions.js";
import { type GroupInfoAnswer, Threads } from "./threads.js";
import { zaloVocabulary } from "./vocabulary.js";
import { LOGIN_HINT, zaloCall } from "./zalo/errors.js";

/** What Zalo Personal can do, as data: the agent's tool schema, core's rules and the contract suite read it. */
export const zalouserCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: {
    clearAll: false, // Zalo clears all of one's reactions at once, but the row promises no clearing
    singleSlot: false, // the bot may hold several icons on one message
    tapbackOnly: false,
    addOnly: false,
    list: false, // Zalo has no listing: the bot reaction record knows what the bot holds
    vocabulary: zaloVocabulary.names,
  },
  typing: true,
  inboundReactions: true,
  replies: true,
  threads: false,
  maxTextLength: MAX_TEXT_LENGTH,
};

/** The Zalo Personal channel plugin; the package's default export. */
export const zalouserChannel = defineChannel<ZalouserConfig>({
  id: "zalouser",
  apiVersion: CHORUS_API_VERSION,
  label: "Zalo Personal",
  capabilities: zalouserCapabilities,
  vocabulary: zaloVocabulary,
  configSchema: zalouserConfigSchema,
  secretKeys: ZALOUSER_SECRET_KEYS,
  create: (ctx) => createZalouserInstance(ctx),
  login: (ctx) => loginWithQr(ctx),
  probe: (ctx) => probeZalouser(ctx),
});

export default zalouserChannel;

/** How many message refs an instance keeps for `resolveMessageRef`. */
const KNOWN_MESSAGES = 5_000;

function createZalouserInstance(ctx: ChannelContext<ZalouserConfig>): ChannelInstance {
  // Every log line, error and status passes the redactor; it learns the session's secrets when read.
  const redactor = new Redactor(secretsOf(ctx.config, ZALOUSER_SECRET_KEYS));
  const logger = redactor.logger(ctx.logger);
  const known = new BoundedMap<string, MessageRef>(KNOWN_MESSAGES);
  const scope = (): RefScope => {
    const link = connection.link;
    if (!link) throw notConnected();
    return { channel: "zalouser", accountId: ctx.accountId, botId: link.uid };
  };
  const notConnected = () => {
    const status = connection.status();
    if (status.detail?.includes(LOGIN_HINT)) {
      return new ChorusError("E_AUTH", `Zalo Personal is not logged in: ${status.detail}`, { hint: LOGIN_HINT });
    }
    return new ChorusError("E_PLATFORM", `Zalo Personal is not connected${status.detail ? `: ${status.detail}` : ""}`, {
      retryable: true,
    });
  };
  const call: ZaloCaller = async (operation, run, idempotent) => {
    const link = connection.link;
    if (!link) throw notConnected();
    try {
      const { result, facts } = await zaloCall(() => run(link.api), {
        operation,
        policy: ctx.config,
        redactor,
        idempotent,
        signal: ctx.signal,
      });
      return { result, facts, api: link.api };
    } catch (error) {
      connection.noteFailure(error);
      throw error;
    }
  };
  const threads = new Threads(
    ctx.store,
    async (groupId) =>
      (await call(`read group ${groupId}`, (api) => api.getGroupInfo(groupId) as Promise<GroupInfoAnswer>, true))
        .result,
    ctx.config.groupInfoTtlMs,
  );
  const groupFacts = (groupId: string) =>
    threads.group(groupId).catch((error: unknown) => {
      logger.debug({ err: error }, `zalouser: no group info for ${groupId}: ${String(error)}`);
      return undefined;
    });
  // Normalising waits for group info: events of one conversation still go out in the order Zalo sent them.
  const inOrder = new KeyedQueue();
  /** Normalises and emits one listener event; what cannot be read becomes a warning naming the fields. */
  const deliver = (
    what: string,
    thread: string,
    normalize: () => Promise<Parameters<typeof ctx.emit>[0] | undefined>,
  ) =>
    inOrder.run(thread, async () => {
      try {
        const event = await normalize();
        if (!event) return;
        if (event.type === "message") known.set(event.ref.messageId, event.ref);
        ctx.emit(event);
      } catch (error) {
        const problem = redactor.text(error instanceof Error ? error.message : String(error));
        logger.warn({ problem }, `zalouser: skipped a ${what} it cannot read: ${problem}`);
      }
    });
  const connection: ZaloConnection = new ZaloConnection({
    config: ctx.config,
    store: ctx.store,
    logger,
    redactor,
    signal: ctx.signal,
    sink: {
      message: (message: UserMessage | GroupMessage) =>
        void deliver("message", String(message.threadId), async () => {
          const group = message.type === ThreadType.Group;
          const id = String(message.threadId);
          await threads.learn(id, group ? "group" : "user");
          return normalizeMessage(
            message.data,
            group ? "group" : "user",
            scope(),
            group ? await groupFacts(id) : undefined,
          );
        }),
      reaction: (reaction: Reaction) =>
        void deliver("reaction", String(reaction.threadId), async () =>
          normalizeReaction(
            reaction.data,
            reaction.isGroup,
            scope(),
            reaction.isGroup ? await groupFacts(String(reaction.threadId)) : undefined,
          ),
        ),
    },
  });
  const record = new BotReactionRecord(ctx.store);

  return {
    start: () => connection.start(),
    stop: () => connection.stop(),
    ...createOutbound({ call, threads, scope, known }),
    ...createReactions(async (icon, message) => {
      const type = message.threadKind === "group" ? ThreadType.Group : ThreadType.User;
      const dest = { data: { msgId: message.msgId, cliMsgId: message.cliMsgId }, threadId: message.threadId, type };
      await call(`react to message ${message.msgId}`, (api) => api.addReaction(icon, dest), false);
    }, record),
    status: () => redactor.status(connection.status()),
    identity: () => {
      const link = connection.link;
      return link ? { id: link.uid, ...(link.name ? { name: link.name } : {}), isBot: true } : undefined;
    },
  };
}

export type { ZalouserConfig } from "./config.js";
export { readSession, SESSION_KEY, writeSession, type ZaloSession } from "./session.js";
