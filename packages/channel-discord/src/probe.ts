import { originOf, probeRequest, unreachable } from "@chorus/channel-kit";
import type { ChannelProbeContext, ChannelProbeResult } from "@chorus/core";
import type { DiscordConfig } from "./config.js";

/** `chorus doctor`: Discord's `GET /users/@me` with the bot token (no gateway connection). */
export async function probeDiscord(ctx: ChannelProbeContext<DiscordConfig>): Promise<ChannelProbeResult> {
  const { config } = ctx;
  const where = `Discord's API at ${originOf(config.apiRoot)}`;
  const answer = await probeRequest(`${config.apiRoot}/v10/users/@me`, {
    headers: { authorization: `Bot ${config.token}` },
    signal: ctx.signal,
  });
  if ("error" in answer) return unreachable(where, answer.error, "check this machine's network and proxy, or apiRoot");
  if (answer.status === 401) {
    return {
      ok: false,
      detail: `${where} refused the bot token (HTTP 401 from /users/@me)`,
      fix: "reset the token in the Developer Portal (your app → Bot → Reset Token) and set channels.discord.token",
    };
  }
  const body = answer.body as { username?: string } | undefined;
  if (answer.status !== 200) {
    return { ok: false, detail: `${where} answered HTTP ${answer.status} to /users/@me`, fix: "try again later" };
  }
  return { ok: true, detail: `the bot token works: ${body?.username ?? "?"}` };
}
