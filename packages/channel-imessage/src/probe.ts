import { originOf, probeRequest, unreachable } from "@chorus/channel-kit";
import type { ChannelProbeContext, ChannelProbeResult } from "@chorus/core";
import type { IMessageConfig } from "./config.js";

/**
 * `chorus doctor`: BlueBubbles' `/api/v1/ping` with the server password (nothing registered, no
 * webhook added); the webhook URL the server posts to is reported for the reachability check.
 */
export async function probeIMessage(ctx: ChannelProbeContext<IMessageConfig>): Promise<ChannelProbeResult> {
  const { config } = ctx;
  const base = config.serverUrl.replace(/\/+$/, "");
  const where = `the BlueBubbles server at ${originOf(base)}`;
  const hooks = { webhooks: [config.webhookUrl ?? `/${ctx.accountId}`], platformUrl: base };
  const url = new URL(`${base}/api/v1/ping`);
  url.searchParams.set("password", config.password);
  const answer = await probeRequest(url, { signal: ctx.signal });
  if ("error" in answer) {
    const fix = "check channels.imessage.serverUrl, and that the BlueBubbles app runs on the Mac";
    return { ...unreachable(where, answer.error, fix), ...hooks };
  }
  if (answer.status === 401) {
    return {
      ok: false,
      detail: `${where} refused the password (HTTP 401 from /ping)`,
      fix: "copy the server password from the BlueBubbles app (Settings → Server password) into channels.imessage.password",
      ...hooks,
    };
  }
  if (answer.status !== 200) {
    return { ok: false, detail: `${where} answered HTTP ${answer.status} to /ping`, fix: "check serverUrl", ...hooks };
  }
  return { ok: true, detail: `${where} answers and accepts the password`, ...hooks };
}
