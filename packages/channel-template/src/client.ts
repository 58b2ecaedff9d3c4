import { codeForStatus, HttpClient, type HttpClientOptions, PlatformHttpError } from "@chorus/channel-kit";
import type { AcmeConfig } from "./config.js";
import type { AcmeError } from "./wire.js";

const AUTH_HINT = "Check channels.acme.token (Acme console → Bots).";

/**
 * The kit's HTTP client pointed at Acme: timeouts, retries, 429 and `Retry-After`, network
 * failures and redaction are the kit's. Acme's own part is its error body,
 * `{ "error": "already_reacted", "message": "…" }`: its code is kept as `platformCode`, because a
 * status alone cannot tell "you already reacted" (harmless) from other conflicts.
 */
export function createAcmeClient(
  config: AcmeConfig,
  instance: Pick<HttpClientOptions, "signal" | "redactor" | "onReachability">,
): HttpClient {
  return new HttpClient({
    ...instance,
    label: "Acme Chat",
    baseUrl: config.baseUrl,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    maxRetryAfterMs: config.maxRetryAfterMs,
    headers: { authorization: `Bearer ${config.token}` },
    hints: { E_AUTH: AUTH_HINT },
    refusal(answer) {
      const body = answer.json as Partial<AcmeError> | undefined;
      // Not Acme's error body (a proxy's page), or a rate limit: the kit's mapping knows best.
      if (typeof body?.error !== "string" || answer.status === 429) return undefined;
      const code = body.error === "unknown_reaction" ? "E_UNSUPPORTED_EMOJI" : codeForStatus(answer.status);
      const said = body.message ? `: ${body.message}` : "";
      const message = `Acme Chat refused to ${answer.operation} (HTTP ${answer.status} ${body.error})${said}`;
      const hint = code === "E_AUTH" ? { hint: AUTH_HINT } : {};
      return new PlatformHttpError(code, message, answer.status, body.error, hint);
    },
  });
}
