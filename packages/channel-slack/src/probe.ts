import { originOf, probeRequest, unreachable } from "@chorus/channel-kit";
import type { ChannelProbeContext, ChannelProbeResult } from "@chorus/core";
import type { SlackConfig } from "./config.js";

/** Slack's answers to a bad token, and what to do about each. */
const TOKEN_FIXES: Record<string, string> = {
  invalid_auth: "copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions into channels.slack.botToken",
  not_authed: "set channels.slack.botToken to the Bot User OAuth Token (xoxb-…)",
  token_revoked: "reinstall the app to the workspace (OAuth & Permissions → Reinstall) and set the new botToken",
  account_inactive: "reinstall the app to the workspace and set the new botToken",
  not_allowed_token_type: "botToken must be the Bot User OAuth Token (xoxb-…), not an app-level token (xapp-…)",
};

/** `chorus doctor`: Slack's `auth.test` with the bot token (no Socket Mode connection, no events). */
export async function probeSlack(ctx: ChannelProbeContext<SlackConfig>): Promise<ChannelProbeResult> {
  const { config } = ctx;
  const base = config.apiUrl.endsWith("/") ? config.apiUrl : `${config.apiUrl}/`;
  const where = `Slack's Web API at ${originOf(base)}`;
  const webhooks = config.mode === "http" ? { webhooks: [`/${ctx.accountId}/events`] } : {};
  const answer = await probeRequest(`${base}auth.test`, {
    method: "POST",
    headers: { authorization: `Bearer ${config.botToken}`, "content-type": "application/x-www-form-urlencoded" },
    body: "",
    signal: ctx.signal,
  });
  if ("error" in answer) {
    return { ...unreachable(where, answer.error, "check this machine's network and proxy, or apiUrl"), ...webhooks };
  }
  const body = answer.body as { ok?: boolean; error?: string; user?: string; team?: string } | undefined;
  if (answer.status !== 200 || body?.ok !== true) {
    const error = body?.error ?? `HTTP ${answer.status}`;
    return {
      ok: false,
      detail: `${where} refused auth.test: ${error}`,
      fix: TOKEN_FIXES[error] ?? "check channels.slack.botToken and the app's installation",
      ...webhooks,
    };
  }
  const mode = config.mode === "http" ? "Events API over HTTP" : "Socket Mode";
  return { ok: true, detail: `the bot token works: ${body.user ?? "?"} in ${body.team ?? "?"} (${mode})`, ...webhooks };
}
