import { originOf, probeRequest, unreachable } from "@chorus/channel-kit";
import type { ChannelProbeContext, ChannelProbeResult } from "@chorus/core";
import type { TelegramConfig } from "./config.js";

/** `chorus doctor`: the Bot API's `getMe` with this token (no long poll, no webhook change). */
export async function probeTelegram(ctx: ChannelProbeContext<TelegramConfig>): Promise<ChannelProbeResult> {
  const { config } = ctx;
  const where = `the Telegram Bot API at ${originOf(config.apiRoot)}`;
  const answer = await probeRequest(`${config.apiRoot}/bot${config.botToken}/getMe`, { signal: ctx.signal });
  const webhooks = config.webhookUrl === undefined ? {} : { webhooks: [config.webhookUrl] };
  if ("error" in answer) {
    const fix = "check this machine's network and proxy, or apiRoot when it is set";
    return { ...unreachable(where, answer.error, fix), ...webhooks };
  }
  const body = answer.body as { ok?: boolean; result?: { username?: string }; description?: string } | undefined;
  if (answer.status === 401 || answer.status === 404) {
    return {
      ok: false,
      detail: `${where} refused the bot token (HTTP ${answer.status} from getMe)`,
      fix: "copy the bot's current token from @BotFather (/mybots → your bot → API Token) into channels.telegram.botToken",
      ...webhooks,
    };
  }
  if (answer.status !== 200 || body?.ok !== true) {
    return {
      ok: false,
      detail: `${where} answered HTTP ${answer.status} to getMe${body?.description ? `: ${body.description}` : ""}`,
      fix: "try again later; if it persists, check apiRoot",
      ...webhooks,
    };
  }
  return { ok: true, detail: `the bot token works: @${body.result?.username ?? "?"}`, ...webhooks };
}
