import { originOf, probeRequest, unreachable } from "@chorus/channel-kit";
import type { ChannelProbeContext, ChannelProbeResult } from "@chorus/core";
import type { AcmeConfig } from "./config.js";
import type { AcmeUser } from "./wire.js";

/**
 * `chorus doctor`: one cheap, side-effect-free call that proves the platform is reachable and the
 * token works (`GET /v1/me`). It starts nothing and registers no webhook: the gateway may be
 * running this account at the same moment. Every failure carries one concrete fix line.
 */
export async function probeAcme({ config, signal }: ChannelProbeContext<AcmeConfig>): Promise<ChannelProbeResult> {
  const base = config.baseUrl.replace(/\/+$/, "");
  const where = `Acme Chat at ${originOf(base)}`;
  // The platform posts to this path under /hooks/acme/: doctor checks the gateway's public URL for it.
  const webhooks = { webhooks: ["/webhook"] };
  const answer = await probeRequest(`${base}/v1/me`, { headers: { authorization: `Bearer ${config.token}` }, signal });
  if ("error" in answer) return { ...unreachable(where, answer.error, "check channels.acme.baseUrl"), ...webhooks };
  if (answer.status === 200) {
    return { ok: true, detail: `the token works: ${(answer.body as AcmeUser | undefined)?.name ?? "?"}`, ...webhooks };
  }
  const refused = answer.status === 401;
  return {
    ok: false,
    detail: refused
      ? `${where} refused the token (HTTP 401 from /v1/me)`
      : `${where} answered HTTP ${answer.status} to /v1/me`,
    fix: refused ? "create a bot token in Acme's admin page and set channels.acme.token" : "try again later",
    ...webhooks,
  };
}
