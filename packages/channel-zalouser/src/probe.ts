import type { ChannelProbeContext, ChannelProbeResult } from "@chorus/core";
import type { ZalouserConfig } from "./config.js";
import { readSession } from "./session.js";

/**
 * `chorus doctor`: whether a Zalo Web session is stored for this account. It does not log in:
 * Zalo keeps one web session per login, and the running gateway holds it.
 */
export async function probeZalouser(ctx: ChannelProbeContext<ZalouserConfig>): Promise<ChannelProbeResult> {
  const login = `chorus channels login zalouser${ctx.accountId === "default" ? "" : ` --account ${ctx.accountId}`}`;
  try {
    const session = await readSession(ctx.store);
    if (!session) return { ok: false, detail: "this account is not linked yet", fix: `link it: ${login}` };
    return { ok: true, detail: `linked since ${session.linkedAt} (the running gateway holds the session)` };
  } catch {
    return { ok: false, detail: "the stored Zalo session cannot be read", fix: `link it again: ${login}` };
  }
}
