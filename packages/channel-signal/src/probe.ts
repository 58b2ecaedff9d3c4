import { originOf, probeRequest } from "@chorus/channel-kit";
import type { ChannelProbeContext, ChannelProbeResult } from "@chorus/core";
import { RPC_PATH } from "./client.js";
import type { SignalConfig } from "./config.js";

/** `chorus doctor`: the daemon's `version`, for this account (no event stream, nothing sent). */
export async function probeSignal(ctx: ChannelProbeContext<SignalConfig>): Promise<ChannelProbeResult> {
  const { config } = ctx;
  const base = config.httpUrl.replace(/\/+$/, "");
  const where = `the signal-cli daemon at ${originOf(base)}`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (config.auth) {
    headers.authorization = `Basic ${Buffer.from(`${config.auth.username}:${config.auth.password}`).toString("base64")}`;
  }
  const answer = await probeRequest(`${base}${RPC_PATH}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", method: "version", params: { account: config.account }, id: 1 }),
    signal: ctx.signal,
  });
  if ("error" in answer) {
    if (config.autoStart) {
      return { ok: true, detail: `${where} is not running; the gateway starts it (autoStart, ${config.cliPath})` };
    }
    return {
      ok: false,
      detail: `${where} is unreachable: ${answer.error}`,
      fix: `start it (signal-cli -a ${config.account} daemon --http ${new URL(base).host}), or set channels.signal.autoStart: true`,
    };
  }
  if (answer.status === 401) {
    return {
      ok: false,
      detail: `${where} refused the proxy credentials (HTTP 401)`,
      fix: "check channels.signal.auth",
    };
  }
  const body = answer.body as { result?: { version?: string }; error?: { message?: string } } | undefined;
  if (body?.error) {
    const unknown = /account/i.test(body.error.message ?? "");
    return {
      ok: false,
      detail: `${where} answered: ${body.error.message ?? "an error"}`,
      fix: unknown
        ? `link ${config.account} to this daemon: chorus channels login signal`
        : "check the daemon's log and version",
    };
  }
  if (answer.status !== 200 || !body?.result) {
    return {
      ok: false,
      detail: `${where} answered HTTP ${answer.status}`,
      fix: "check httpUrl: it must be a signal-cli daemon --http",
    };
  }
  return { ok: true, detail: `${where} answers (signal-cli ${body.result.version ?? "?"})` };
}
