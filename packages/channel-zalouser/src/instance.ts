import { BotReactionRecord, BoundedMap, Redactor, secretsOf } from "@chorus/channel-kit";
import { type ChannelContext, type ChannelInstance, ChorusError, type MessageRef, type RefScope } from "@chorus/core";
import { ThreadType } from "zca-js";
import { ZALOUSER_SECRET_KEYS, type ZalouserConfig } from "./config.js";
import { ZaloConnection } from "./connection.js";
import { createDownload } from "./download.js";
import { createMediaSender } from "./media-send.js";
import { createOutbound, type ZaloCaller } from "./outbound.js";
import { createReactions } from "./reactions.js";
import { createZaloReceive } from "./receive.js";
import { type GroupInfoAnswer, Threads } from "./threads.js";
import { LOGIN_HINT, zaloCall } from "./zalo/errors.js";

/** How many message refs an instance keeps for `resolveMessageRef`. */
const KNOWN_MESSAGES = 5_000;

/** One running Zalo account: wires the connection, its listener's receiver, outbound and reactions. */
export function createZalouserInstance(ctx: ChannelContext<ZalouserConfig>): ChannelInstance {
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
  const connection: ZaloConnection = new ZaloConnection({
    config: ctx.config,
    store: ctx.store,
    logger,
    redactor,
    signal: ctx.signal,
    // The one glue from the listener to ctx.emit (receive.ts): kept and emitted again until committed.
    sink: createZaloReceive({ logger, emit: (event) => ctx.emit(event), signal: ctx.signal, scope, threads, known }),
  });
  const record = new BotReactionRecord(ctx.store);
  const sendMedium = createMediaSender({ call, uploadTimeoutMs: ctx.config.uploadTimeoutMs });
  const download = createDownload(ctx.config, call, ctx.signal);

  return {
    start: () => connection.start(),
    stop: () => connection.stop(),
    ...createOutbound({ call, threads, scope, known, sendMedium }),
    // What a download throws passes the redactor too (it names no URL, but a platform's words might carry a secret).
    download: (attachment, options) =>
      download(attachment, options).catch((error: unknown) => {
        throw redactor.error(error);
      }),
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
