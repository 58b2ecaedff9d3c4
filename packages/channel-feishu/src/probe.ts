import { originOf, probeRequest, unreachable } from "@chorus/channel-kit";
import type { ChannelProbeContext, ChannelProbeResult } from "@chorus/core";
import { type FeishuConfig, openApiBase } from "./config.js";
import { webhookPath } from "./webhook.js";

/** `chorus doctor`: a tenant access token for appId/appSecret (no long connection, no event). */
export async function probeFeishu(ctx: ChannelProbeContext<FeishuConfig>): Promise<ChannelProbeResult> {
  const { config } = ctx;
  const base = openApiBase(config);
  const where = `the Open API at ${originOf(base)}`;
  const webhooks = config.mode === "webhook" ? { webhooks: [webhookPath(ctx.accountId)] } : {};
  const answer = await probeRequest(`${base}/open-apis/auth/v3/tenant_access_token/internal`, {
    method: "POST",
    headers: { "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify({ app_id: config.appId, app_secret: config.appSecret }),
    signal: ctx.signal,
  });
  if ("error" in answer) {
    return { ...unreachable(where, answer.error, "check this machine's network and proxy, or domain"), ...webhooks };
  }
  const body = answer.body as { code?: number; msg?: string } | undefined;
  if (body?.code !== 0) {
    return {
      ok: false,
      detail: `${where} refused the app credentials: ${body?.msg ?? `HTTP ${answer.status}`} (code ${body?.code ?? "?"})`,
      fix: "copy App ID and App Secret from the developer console (Credentials & Basic Info) into channels.feishu.appId / appSecret, and check domain (feishu or lark)",
      ...webhooks,
    };
  }
  const transport = config.mode === "webhook" ? "webhooks" : "long connection";
  return { ok: true, detail: `the app credentials work (${transport})`, ...webhooks };
}
