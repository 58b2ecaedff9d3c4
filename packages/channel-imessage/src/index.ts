/**
 * iMessage through a BlueBubbles server: REST out, webhooks in, tapbacks as reactions.
 * Reading order: `config.ts` → `client.ts` → `health.ts` / `connection.ts` → `inbound.ts` /
 * `normalize.ts` → `outbound.ts` → `reactions.ts` (with `vocabulary.ts`).
 */
import {
  CHORUS_API_VERSION,
  type ChannelCapabilities,
  type ChannelContext,
  type ChannelInstance,
  defineChannel,
  type Participant,
} from "@chorus/core";
import { e164Of, handleId } from "./addresses.js";
import { BlueBubblesClient } from "./client.js";
import { type IMessageConfig, imessageConfigSchema } from "./config.js";
import { Connection } from "./connection.js";
import type { ServerHealth } from "./health.js";
import { createWebhookHandler } from "./inbound.js";
import { IMessageOutbound } from "./outbound.js";
import { IMessageReactions } from "./reactions.js";
import { loadWebhookSecret, webhookUrlWithSecret } from "./secret.js";
import { OwnMessages, TapbackStore } from "./stores.js";
import { imessageVocabulary, TAPBACK_KINDS } from "./vocabulary.js";

const ID = "imessage";

/** What iMessage through BlueBubbles can do, as data (DESIGN §2.2 row: tapbackOnly, singleSlot, clearAll). */
export const imessageCapabilities: ChannelCapabilities = {
  chatTypes: ["direct", "group"],
  reactions: {
    clearAll: true, // emoji "" or clearAll: true takes the bot's tapback back
    singleSlot: true, // one tapback per person per message; a new one replaces the old
    tapbackOnly: true, // six kinds; emoji must map onto one
    addOnly: false,
    list: false, // no "who tapped what" call: the bot's own tapback is tracked in stateDir
    vocabulary: TAPBACK_KINDS,
  },
  typing: true, // with the Private API
  inboundReactions: true,
  replies: true, // inline replies, with the Private API
  threads: false,
  maxTextLength: 4_000,
};

/** The iMessage channel plugin; the package's default export. */
export const imessageChannel = defineChannel<IMessageConfig>({
  id: ID,
  apiVersion: CHORUS_API_VERSION,
  label: "iMessage",
  capabilities: imessageCapabilities,
  vocabulary: imessageVocabulary,
  configSchema: imessageConfigSchema,
  create: (ctx) => createIMessageInstance(ctx),
});

export default imessageChannel;

/** An iMessage instance plus what `chorus doctor` can ask it. */
export interface IMessageInstance extends ChannelInstance {
  /** The last server check: reachable, password, Private API, webhook (undefined before start). */
  health(): ServerHealth | undefined;
  /** Checks the server again now (and registers the webhook when missing). */
  recheck(): Promise<ServerHealth | undefined>;
}

/** One BlueBubbles server (account): its webhook route `/hooks/imessage/<accountId>`, client and status. */
function createIMessageInstance(ctx: ChannelContext<IMessageConfig>): IMessageInstance {
  const path = `/${ctx.accountId}`;
  const shownUrl = ctx.config.webhookUrl ?? ctx.http.url(path);
  const who = { channel: ID, accountId: ctx.accountId };
  let connection: Connection | undefined;
  const client = new BlueBubblesClient(ctx.config, ctx.signal, (reachable) => connection?.reachability(reachable));
  const own = new OwnMessages(ctx.stateDir);
  const tapbacks = new TapbackStore(ctx.stateDir);
  const outbound = new IMessageOutbound(client, ctx.config, who, own, () => connection?.privateApi() ?? false);
  const reactions = new IMessageReactions(client, tapbacks);
  let secret: string | undefined;
  let running = false;

  ctx.http.route(
    "POST",
    path,
    createWebhookHandler({
      secret: () => secret,
      who,
      own,
      fetchMessage: (guid) => client.getMessage(guid),
      running: () => running,
      emit: (event) => ctx.emit(event),
      logger: ctx.logger,
    }),
  );

  return {
    async start() {
      await Promise.all([own.load(), tapbacks.load()]);
      secret = await loadWebhookSecret(ctx.stateDir, ctx.config.webhookSecret);
      connection = new Connection({
        client,
        webhook: { url: webhookUrlWithSecret(shownUrl, secret), register: ctx.config.registerWebhook },
        shownUrl,
        reconnectMaxMs: ctx.config.reconnectMaxMs,
        logger: ctx.logger,
      });
      running = true;
      try {
        await connection.start();
      } catch (error) {
        running = false;
        throw error;
      }
      if (!ctx.config.registerWebhook) {
        ctx.logger.info(
          { webhook: shownUrl },
          "imessage: add this webhook in BlueBubbles (events new-message, updated-message), with ?secret=<webhookSecret>",
        );
      }
    },
    async stop() {
      running = false;
      connection?.stop();
    },
    send: (conversation, message) => outbound.send(conversation, message),
    react: (ref, intent) => reactions.react(ref, intent),
    setTyping: (conversation, on) => outbound.setTyping(conversation, on),
    resolveMessageRef: (conversation, messageId) => outbound.resolveMessageRef(conversation, messageId),
    status: () => connection?.status() ?? { state: "stopped" },
    identity(): Participant | undefined {
      const address = ctx.config.address ?? connection?.health()?.account;
      if (!running || !address) return undefined;
      const e164 = e164Of(address);
      return { id: handleId(address), ...(e164 ? { e164 } : {}), isBot: true };
    },
    health: () => connection?.health(),
    async recheck() {
      await connection?.check();
      return connection?.health();
    },
  };
}

export { chatKind, directChatGuid, directHandle, e164Of, handleId } from "./addresses.js";
export { API_PREFIX, type ApiCall, BlueBubblesApiError, BlueBubblesClient } from "./client.js";
export { type IMessageConfig, imessageConfigSchema } from "./config.js";
export { checkServer, type ServerHealth, WEBHOOK_EVENTS } from "./health.js";
export { conversationOf, refOf, toInboundEvent } from "./normalize.js";
export { chatGuidOf } from "./outbound.js";
export { SECRET_HEADER } from "./secret.js";
export {
  imessageVocabulary,
  parseTapbackType,
  TAPBACK_EMOJI,
  TAPBACK_KINDS,
  type TapbackKind,
  targetGuid,
} from "./vocabulary.js";
export type * from "./wire.js";
