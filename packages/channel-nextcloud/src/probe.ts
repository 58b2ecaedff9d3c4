import { originOf, probeRequest, unreachable } from "@chorus/channel-kit";
import type { ChannelProbeContext, ChannelProbeResult } from "@chorus/core";
import type { NextcloudConfig } from "./config.js";

/**
 * `chorus doctor`: Nextcloud's unauthenticated `status.php` (reachable, installed, not in
 * maintenance). Talk has no call that checks a bot's secret without posting, so the secret is
 * checked by the first reply; the webhook URL Talk posts to is reported for the public-URL check.
 */
export async function probeNextcloud(ctx: ChannelProbeContext<NextcloudConfig>): Promise<ChannelProbeResult> {
  const { config } = ctx;
  const base = config.baseUrl.replace(/\/+$/, "");
  const where = `Nextcloud at ${originOf(base)}`;
  const hooks = {
    webhooks: [config.webhookUrl ?? `/${ctx.accountId}`],
    platformUrl: base,
  };
  const answer = await probeRequest(`${base}/status.php`, { signal: ctx.signal });
  if ("error" in answer) {
    return {
      ...unreachable(where, answer.error, "check channels.nextcloud.baseUrl and that the server is up"),
      ...hooks,
    };
  }
  const status = answer.body as { installed?: boolean; maintenance?: boolean; versionstring?: string } | undefined;
  if (answer.status !== 200 || typeof status !== "object" || status?.installed !== true) {
    return {
      ok: false,
      detail: `${where} did not answer like a Nextcloud server (HTTP ${answer.status} from /status.php)`,
      fix: "set channels.nextcloud.baseUrl to the server's address (the one in your browser, without /index.php)",
      ...hooks,
    };
  }
  if (status.maintenance === true) {
    return { ok: false, detail: `${where} is in maintenance mode`, fix: "wait for the maintenance to end", ...hooks };
  }
  const detail = `${where} answers (Nextcloud ${status.versionstring ?? "?"})`;
  if (!config.files) return { ok: true, detail, ...hooks };
  // The files user's login: the current user (OCS Provisioning API, `GET /cloud/user`), read-only.
  const { user, appPassword } = config.files;
  const login = await probeRequest(`${base}/ocs/v2.php/cloud/user`, {
    headers: {
      authorization: `Basic ${Buffer.from(`${user}:${appPassword}`).toString("base64")}`,
      "ocs-apirequest": "true",
      accept: "application/json",
    },
    signal: ctx.signal,
  });
  if ("error" in login || login.status !== 200) {
    const why = "error" in login ? login.error : `HTTP ${login.status}`;
    return {
      ok: false,
      detail: `${detail}, but the files login of "${user}" failed (${why})`,
      fix: "check channels.nextcloud.files.user and files.appPassword (an app password of that user)",
      ...hooks,
    };
  }
  return { ok: true, detail: `${detail}; files as "${user}"`, ...hooks };
}
