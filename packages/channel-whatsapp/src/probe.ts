import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChannelProbeContext, ChannelProbeResult } from "@chorus/core";
import type { WhatsAppConfig } from "./config.js";
import { authDirOf } from "./link/index.js";

/**
 * `chorus doctor`: whether this account is linked (its stored credentials name a device). It opens
 * no connection: WhatsApp allows one per linked device, and the running gateway holds it.
 */
export async function probeWhatsApp(ctx: ChannelProbeContext<WhatsAppConfig>): Promise<ChannelProbeResult> {
  const dir = authDirOf(ctx.config, ctx.stateDir);
  const login = `chorus channels login whatsapp${ctx.accountId === "default" ? "" : ` --account ${ctx.accountId}`}`;
  let creds: { me?: { id?: unknown }; registered?: unknown; account?: unknown } | undefined;
  try {
    creds = JSON.parse(await readFile(join(dir, "creds.json"), "utf8")) as typeof creds;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    return {
      ok: false,
      detail: missing ? "this account is not linked yet" : "the stored credentials are unreadable",
      fix: missing ? `link it: ${login}` : `delete ${dir} and link again: ${login}`,
    };
  }
  const linked =
    typeof creds?.me?.id === "string" && creds.me.id !== "" && (creds.account != null || creds.registered === true);
  if (!linked) return { ok: false, detail: "the link was never completed", fix: `link it: ${login}` };
  return { ok: true, detail: "linked as a device (the running gateway holds the connection)" };
}
